#ifndef CSHIMS_X509_SHIMS_H
#define CSHIMS_X509_SHIMS_H
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// The typed stack macros (sk_X509_*, sk_GENERAL_NAME_*, ...) do not import into Swift;
// these are callable wrappers. Pointers returned by *_value are borrowed from the stack.

STACK_OF(X509) *cshims_sk_X509_new_null(void);
/// Pushes `cert` without taking a reference; the caller keeps `cert` alive while the stack is used.
int cshims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert);
/// Frees the stack only (not its elements).
void cshims_sk_X509_free(STACK_OF(X509) *stack);
int cshims_sk_X509_num(const STACK_OF(X509) *stack);
X509 *cshims_sk_X509_value(const STACK_OF(X509) *stack, int index);

/// EXTENDED_KEY_USAGE is STACK_OF(ASN1_OBJECT).
int cshims_eku_num(const EXTENDED_KEY_USAGE *eku);
const ASN1_OBJECT *cshims_eku_value(const EXTENDED_KEY_USAGE *eku, int index);
void cshims_eku_free(EXTENDED_KEY_USAGE *eku);

int cshims_general_names_num(const GENERAL_NAMES *names);
const GENERAL_NAME *cshims_general_names_value(const GENERAL_NAMES *names, int index);
void cshims_general_names_free(GENERAL_NAMES *names);

/// CRL_DIST_POINTS is STACK_OF(DIST_POINT).
int cshims_crl_dps_num(const CRL_DIST_POINTS *points);
const DIST_POINT *cshims_crl_dps_value(const CRL_DIST_POINTS *points, int index);
void cshims_crl_dps_free(CRL_DIST_POINTS *points);
/// The fullName of a distribution point, or NULL (absent or nameRelativeToCRLIssuer). Borrowed.
const GENERAL_NAMES *cshims_dp_full_names(const DIST_POINT *point);
/// 1 when the distributionPoint field is a nameRelativeToCRLIssuer.
int cshims_dp_has_relative_name(const DIST_POINT *point);
int cshims_dp_has_reasons(const DIST_POINT *point);
int cshims_dp_has_crl_issuer(const DIST_POINT *point);

/// BASIC_CONSTRAINTS fields. Returns `ca` (0/1); `*has_path_len` is set when pathLenConstraint
/// is present and `*path_len` to its value (INT64_MAX when it does not fit).
int cshims_basic_constraints_get(const BASIC_CONSTRAINTS *bc, int *has_path_len, int64_t *path_len);
void cshims_basic_constraints_free(BASIC_CONSTRAINTS *bc);

/// Human-readable text of a GeneralName ("IP Address:…", "DirName:…"). OPENSSL_malloc'd, NUL-terminated;
/// free with cshims_openssl_free. NULL on failure.
char *cshims_general_name_to_string(const GENERAL_NAME *name);

/// RFC 2253 / 4514 string of a name ("CN=…, O=…, C=…": last RDN first, ", " between RDNs,
/// UTF-8 kept). OPENSSL_malloc'd; free with cshims_openssl_free. NULL on failure.
char *cshims_x509_name_to_string(const X509_NAME *name);

/// 1 when the last queued OpenSSL error is "no start line" from the PEM reader
/// (i.e. the input holds no further PEM block). Does not clear the queue.
int cshims_err_is_pem_no_start_line(void);
#endif
