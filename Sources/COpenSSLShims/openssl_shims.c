#include "openssl_shims.h"
#include <string.h>
#include <openssl/bn.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

void cshims_openssl_free(void *ptr) { OPENSSL_free(ptr); }

void cshims_clear_free(void *ptr, size_t len) { OPENSSL_clear_free(ptr, len); }

EVP_PKEY *cshims_generate_key(const char *type, const char *group) {
    if (group != NULL && strcmp(type, "EC") == 0) {
        return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
    }
    return EVP_PKEY_Q_keygen(NULL, NULL, type);
}

int cshims_hkdf(EVP_KDF *kdf, const EVP_MD *md, int mode,
                const uint8_t *key, size_t keylen,
                const uint8_t *salt, size_t saltlen,
                const uint8_t *info, size_t infolen,
                uint8_t *out, size_t outlen) {
    static const uint8_t empty[1] = {0};
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    if (ctx == NULL) return 0;
    OSSL_PARAM params[6];
    size_t n = 0;
    params[n++] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)EVP_MD_get0_name(md), 0);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
                                                    (void *)(key != NULL ? key : empty), keylen);
    if (salt != NULL && saltlen > 0)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
    if (info != NULL && infolen > 0)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
    params[n] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, outlen, params);
    EVP_KDF_CTX_free(ctx);  /* clears the copies of key, salt and info */
    return ok == 1;
}

int cshims_hmac(EVP_MAC *mac, const EVP_MD *md,
                const uint8_t *key, size_t keylen,
                const uint8_t *data, size_t datalen,
                uint8_t *out, size_t outcap) {
    static const uint8_t empty[1] = {0};
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    if (ctx == NULL) return 0;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)EVP_MD_get0_name(md), 0);
    params[1] = OSSL_PARAM_construct_end();
    size_t outlen = 0;
    int ok = EVP_MAC_init(ctx, key != NULL ? key : empty, keylen, params) == 1
        && (datalen == 0 || EVP_MAC_update(ctx, data, datalen) == 1)
        && EVP_MAC_final(ctx, out, &outlen, outcap) == 1;
    EVP_MAC_CTX_free(ctx);
    return ok && outlen == (size_t)EVP_MD_get_size(md);
}

EVP_PKEY *cshims_ec_parameters(const char *group) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL) return NULL;
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_PKEY_fromdata_init(ctx) != 1
        || EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEY_PARAMETERS, params) != 1) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

EVP_PKEY *cshims_ec_public_key_from_template(const EVP_PKEY *params, const uint8_t *point, size_t pointlen) {
    EVP_PKEY *pkey = EVP_PKEY_new();
    if (pkey == NULL) return NULL;
    if (EVP_PKEY_copy_parameters(pkey, params) != 1
        || EVP_PKEY_set1_encoded_public_key(pkey, point, pointlen) != 1) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    return pkey;
}

int cshims_ec_keypair_from_scalar(const char *group, const uint8_t *scalar, size_t scalarlen,
                                  EVP_PKEY **out) {
    int ret = 0;
    *out = NULL;
    EC_GROUP *g = NULL;
    BIGNUM *d = NULL;
    EC_POINT *q = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    uint8_t pub[1 + 2 * 66];
    uint8_t le[66];  /* native-endian (little-endian on every supported target) scalar for OSSL_PARAM */
    if (scalarlen == 0 || scalarlen > sizeof le) return 0;

    int nid = EC_curve_nist2nid(group);
    if (nid == NID_undef) nid = OBJ_sn2nid(group);  /* brainpoolP256r1 … brainpoolP512r1 */
    if (nid == NID_undef || (g = EC_GROUP_new_by_curve_name(nid)) == NULL) goto end;
    if ((d = BN_secure_new()) == NULL || BN_bin2bn(scalar, (int)scalarlen, d) == NULL) goto end;
    BN_set_flags(d, BN_FLG_CONSTTIME);
    if (BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(g)) >= 0) { ret = -1; goto end; }
    if ((q = EC_POINT_new(g)) == NULL || EC_POINT_mul(g, q, d, NULL, NULL, NULL) != 1) goto end;
    size_t publen = EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, NULL);
    if (publen == 0) goto end;
    if (BN_bn2nativepad(d, le, (int)scalarlen) != (int)scalarlen) goto end;

    OSSL_PARAM params[4];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)group, 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub, publen);
    params[2] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, le, scalarlen);
    params[3] = OSSL_PARAM_construct_end();
    if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL
        || EVP_PKEY_fromdata_init(ctx) != 1
        || EVP_PKEY_fromdata(ctx, out, EVP_PKEY_KEYPAIR, params) != 1) {
        EVP_PKEY_free(*out);
        *out = NULL;
        goto end;
    }
    ret = 1;
end:
    OPENSSL_cleanse(le, sizeof le);
    EVP_PKEY_CTX_free(ctx);
    EC_POINT_free(q);
    BN_clear_free(d);
    EC_GROUP_free(g);
    return ret;
}

int cshims_ec_private_scalar(const EVP_PKEY *pkey, uint8_t *out, size_t outlen) {
    BIGNUM *d = NULL;
    if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1 || d == NULL) return 0;
    int ok = BN_bn2binpad(d, out, (int)outlen) == (int)outlen;
    BN_clear_free(d);
    return ok;
}

int cshims_ec_uncompressed_point(const EVP_PKEY *pkey, uint8_t *out, size_t coordlen) {
    /* Fast path: the key's own encoding, when it is uncompressed (the default point format). */
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, 1 + 2 * coordlen, &len) == 1
        && len == 1 + 2 * coordlen && out[0] == 0x04)
        return 1;
    ERR_clear_error();
    /* Compressed or hybrid preferred format: rebuild from the affine coordinates. */
    BIGNUM *x = NULL, *y = NULL;
    int ok = EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_X, &x) == 1
        && EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, &y) == 1
        && x != NULL && y != NULL
        && BN_bn2binpad(x, out + 1, (int)coordlen) == (int)coordlen
        && BN_bn2binpad(y, out + 1 + coordlen, (int)coordlen) == (int)coordlen;
    out[0] = 0x04;
    BN_free(x);
    BN_free(y);
    return ok;
}

size_t cshims_ecdsa_raw_to_der(const uint8_t *raw, size_t half, uint8_t *out, size_t outcap) {
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(raw, (int)half, NULL);
    BIGNUM *s = BN_bin2bn(raw + half, (int)half, NULL);
    size_t result = 0;
    if (sig == NULL || r == NULL || s == NULL) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(sig);
        return 0;
    }
    ECDSA_SIG_set0(sig, r, s);  /* sig owns r and s from here */
    int len = i2d_ECDSA_SIG(sig, NULL);
    if (len > 0 && (size_t)len <= outcap) {
        uint8_t *cursor = out;
        if (i2d_ECDSA_SIG(sig, &cursor) == len) result = (size_t)len;
    }
    ECDSA_SIG_free(sig);
    return result;
}

int cshims_ecdsa_der_to_raw(const uint8_t *der, size_t derlen, uint8_t *out, size_t half) {
    const uint8_t *cursor = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &cursor, (long)derlen);
    if (sig == NULL) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(sig, &r, &s);
    int ok = cursor == der + derlen
        && BN_bn2binpad(r, out, (int)half) == (int)half
        && BN_bn2binpad(s, out + half, (int)half) == (int)half;
    ECDSA_SIG_free(sig);
    return ok;
}

char *cshims_private_key_pem(EVP_PKEY *pkey, int sec1) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    char *result = NULL;
    int ok = sec1 ? PEM_write_bio_PrivateKey_traditional(bio, pkey, NULL, NULL, 0, NULL, NULL)
                  : PEM_write_bio_PKCS8PrivateKey(bio, pkey, NULL, NULL, 0, NULL, NULL);
    if (ok == 1) {
        char *data = NULL;
        long len = BIO_get_mem_data(bio, &data);
        if (len > 0 && data != NULL && (result = OPENSSL_malloc((size_t)len + 1)) != NULL) {
            memcpy(result, data, (size_t)len);
            result[len] = '\0';
        }
        if (data != NULL && len > 0) OPENSSL_cleanse(data, (size_t)len);
    }
    BIO_free(bio);
    return result;
}

void cshims_clear_free_string(char *str) {
    if (str != NULL) OPENSSL_clear_free(str, strlen(str));
}

size_t cshims_private_key_pkcs8_der(EVP_PKEY *pkey, uint8_t **out) {
    *out = NULL;
    PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(pkey);
    if (p8 == NULL) return 0;
    int len = i2d_PKCS8_PRIV_KEY_INFO(p8, out);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return len > 0 ? (size_t)len : 0;
}
