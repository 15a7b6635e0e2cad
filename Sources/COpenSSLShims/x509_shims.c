#include "x509_shims.h"
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <stdint.h>
#include <string.h>

STACK_OF(X509) *cshims_sk_X509_new_null(void) { return sk_X509_new_null(); }
int cshims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
void cshims_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
int cshims_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
X509 *cshims_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

int cshims_eku_num(const EXTENDED_KEY_USAGE *eku) { return sk_ASN1_OBJECT_num(eku); }
const ASN1_OBJECT *cshims_eku_value(const EXTENDED_KEY_USAGE *eku, int index) {
    return sk_ASN1_OBJECT_value(eku, index);
}
void cshims_eku_free(EXTENDED_KEY_USAGE *eku) { EXTENDED_KEY_USAGE_free(eku); }

int cshims_general_names_num(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
const GENERAL_NAME *cshims_general_names_value(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}
void cshims_general_names_free(GENERAL_NAMES *names) { GENERAL_NAMES_free(names); }

int cshims_crl_dps_num(const CRL_DIST_POINTS *points) { return sk_DIST_POINT_num(points); }
const DIST_POINT *cshims_crl_dps_value(const CRL_DIST_POINTS *points, int index) {
    return sk_DIST_POINT_value(points, index);
}
void cshims_crl_dps_free(CRL_DIST_POINTS *points) { CRL_DIST_POINTS_free(points); }

const GENERAL_NAMES *cshims_dp_full_names(const DIST_POINT *point) {
    if (point == NULL || point->distpoint == NULL || point->distpoint->type != 0) return NULL;
    return point->distpoint->name.fullname;
}
int cshims_dp_has_relative_name(const DIST_POINT *point) {
    return point != NULL && point->distpoint != NULL && point->distpoint->type == 1;
}
int cshims_dp_has_reasons(const DIST_POINT *point) { return point != NULL && point->reasons != NULL; }
int cshims_dp_has_crl_issuer(const DIST_POINT *point) { return point != NULL && point->CRLissuer != NULL; }

int cshims_basic_constraints_get(const BASIC_CONSTRAINTS *bc, int *has_path_len, int64_t *path_len) {
    *has_path_len = 0;
    *path_len = 0;
    if (bc->pathlen != NULL) {
        *has_path_len = 1;
        if (!ASN1_INTEGER_get_int64(path_len, bc->pathlen)) {
            *path_len = INT64_MAX;
            ERR_clear_error();
        }
    }
    return bc->ca ? 1 : 0;
}
void cshims_basic_constraints_free(BASIC_CONSTRAINTS *bc) { BASIC_CONSTRAINTS_free(bc); }

/// Copies a memory BIO's contents into a NUL-terminated OPENSSL_malloc'd string.
static char *bio_to_string(BIO *bio) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length < 0) return NULL;
    char *out = OPENSSL_malloc((size_t)length + 1);
    if (out == NULL) return NULL;
    if (length > 0) memcpy(out, data, (size_t)length);
    out[length] = '\0';
    return out;
}

char *cshims_general_name_to_string(const GENERAL_NAME *name) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    char *out = NULL;
    if (GENERAL_NAME_print(bio, (GENERAL_NAME *)name) == 1) out = bio_to_string(bio);
    BIO_free(bio);
    return out;
}

char *cshims_x509_name_to_string(const X509_NAME *name) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    unsigned long flags = (XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB & ~XN_FLAG_SEP_MASK) | XN_FLAG_SEP_CPLUS_SPC;
    char *out = NULL;
    if (X509_NAME_print_ex(bio, name, 0, flags) >= 0) out = bio_to_string(bio);
    BIO_free(bio);
    return out;
}

int cshims_err_is_pem_no_start_line(void) {
    unsigned long err = ERR_peek_last_error();
    return ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE;
}
