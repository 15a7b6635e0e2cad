#include "openssl_shims.h"

void cshims_openssl_free(void *ptr) { OPENSSL_free(ptr); }
