#ifndef CSHIMS_OPENSSL_SHIMS_H
#define CSHIMS_OPENSSL_SHIMS_H
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/crypto.h>

/// OPENSSL_free is a macro; this is a callable wrapper.
void cshims_openssl_free(void *ptr);
#endif
