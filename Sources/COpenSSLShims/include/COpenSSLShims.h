#ifndef COPENSSLSHIMS_H
#define COPENSSLSHIMS_H
// C helpers over OpenSSL 3.0:
//   openssl_shims.h  – wrappers for OpenSSL macros that do not import into Swift
//   x509_shims.h     – X.509 helpers (stack macros, extension access)
#include "openssl_shims.h"
#include "x509_shims.h"
#endif
