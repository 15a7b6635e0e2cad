#ifndef CSHIMS_X509_SHIMS_H
#define CSHIMS_X509_SHIMS_H
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
