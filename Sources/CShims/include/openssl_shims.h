#ifndef CSHIMS_OPENSSL_SHIMS_H
#define CSHIMS_OPENSSL_SHIMS_H
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/crypto.h>

/// OPENSSL_free is a macro; this is a callable wrapper.
void cshims_openssl_free(void *ptr);

/// EVP_PKEY_Q_keygen is variadic and does not import: generate a key of `type`
/// ("EC" with `group` such as "P-256", or "X25519" / "ED25519" with group NULL).
EVP_PKEY *cshims_generate_key(const char *type, const char *group);
#endif
