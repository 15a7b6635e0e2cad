#ifndef CSHIMS_H
#define CSHIMS_H
// Umbrella for the C helpers. Each area keeps its own header:
//   openssl_shims.h  – wrappers for OpenSSL macros that do not import into Swift
//   x509_shims.h     – X.509 helpers (stack macros, extension access)
//   cbor_walker.h    – bounded streaming walk over CBOR input on libcbor
#include "openssl_shims.h"
#include "x509_shims.h"
#include "cbor_walker.h"
#endif
