#include "openssl_shims.h"
#include <string.h>

void cshims_openssl_free(void *ptr) { OPENSSL_free(ptr); }

EVP_PKEY *cshims_generate_key(const char *type, const char *group) {
    if (group != NULL && strcmp(type, "EC") == 0) {
        return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
    }
    return EVP_PKEY_Q_keygen(NULL, NULL, type);
}
