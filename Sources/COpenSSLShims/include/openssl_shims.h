#ifndef CSHIMS_OPENSSL_SHIMS_H
#define CSHIMS_OPENSSL_SHIMS_H
#define OPENSSL_NO_DEPRECATED 1
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>

// C helpers for CryptoCore. Everything that builds OSSL_PARAM arrays lives here so that the
// parameter names and values stay alive for exactly the duration of the OpenSSL call (Swift
// String-to-pointer bridging only lasts one call, and OSSL_PARAM keeps the pointers).

/// OPENSSL_free is a macro; this is a callable wrapper.
void cshims_openssl_free(void *ptr);

/// EVP_PKEY_Q_keygen is variadic and does not import: generate a key of `type`
/// ("EC" with `group` such as "P-256", or "X25519" / "ED25519" with group NULL).
EVP_PKEY *cshims_generate_key(const char *type, const char *group);

/// HKDF through a pre-fetched EVP_KDF ("HKDF") and EVP_MD. `mode` is EVP_KDF_HKDF_MODE_*.
/// `key` must not be NULL (pass any valid pointer with keylen 0 for an empty key);
/// an empty salt or info may be passed as NULL/0. Returns 1 on success.
int cshims_hkdf(EVP_KDF *kdf, const EVP_MD *md, int mode,
                const uint8_t *key, size_t keylen,
                const uint8_t *salt, size_t saltlen,
                const uint8_t *info, size_t infolen,
                uint8_t *out, size_t outlen);

/// HMAC through a pre-fetched EVP_MAC ("HMAC") and EVP_MD. `out` must hold EVP_MD_get_size(md)
/// bytes. Returns 1 on success.
int cshims_hmac(EVP_MAC *mac, const EVP_MD *md,
                const uint8_t *key, size_t keylen,
                const uint8_t *data, size_t datalen,
                uint8_t *out, size_t outcap);

/// An EVP_PKEY holding only the domain parameters of `group` ("P-256", "P-384", "P-521"), to be used
/// as a template by cshims_ec_public_key_from_template. Returns NULL on failure.
EVP_PKEY *cshims_ec_parameters(const char *group);

/// Imports an EC public key on the group of `params` (from cshims_ec_parameters) from its SEC1 octet
/// encoding: EVP_PKEY_copy_parameters + EVP_PKEY_set1_encoded_public_key, about four times cheaper than
/// EVP_PKEY_fromdata (no group construction from its name). The same point decoding runs, so coordinates
/// >= p and points not on the curve are rejected. `params` is only read and may be shared between threads.
/// Callers must have checked the encoding is uncompressed (0x04 || X || Y): the single byte 0x00 would
/// otherwise decode to the point at infinity. Returns NULL on failure.
EVP_PKEY *cshims_ec_public_key_from_template(const EVP_PKEY *params, const uint8_t *point, size_t pointlen);

/// Builds an EC key pair from a big-endian private scalar, computing the public point d*G.
/// Returns 1 and sets *out on success, -1 when the scalar is 0 or >= the group order, 0 on any
/// other failure. Intermediate copies of the scalar are cleansed.
int cshims_ec_keypair_from_scalar(const char *group, const uint8_t *scalar, size_t scalarlen,
                                  EVP_PKEY **out);

/// Writes the big-endian private scalar of an EC key left-padded to `outlen` bytes. Returns 1 on success.
int cshims_ec_private_scalar(const EVP_PKEY *pkey, uint8_t *out, size_t outlen);

/// Writes the affine coordinates of an EC public key (each left-padded to `coordlen`) as
/// 0x04 || X || Y into `out` (2*coordlen + 1 bytes), whatever the key's preferred point format.
/// Returns 1 on success, 0 on failure (including the point at infinity).
int cshims_ec_uncompressed_point(const EVP_PKEY *pkey, uint8_t *out, size_t coordlen);

/// Converts a raw ECDSA signature r || s (each `half` bytes, big-endian) into DER.
/// Returns the DER length written to `out` (capacity `outcap`), or 0 on failure.
size_t cshims_ecdsa_raw_to_der(const uint8_t *raw, size_t half, uint8_t *out, size_t outcap);

/// Converts a DER ECDSA signature into raw r || s, each left-padded to `half` bytes.
/// Returns 1 on success, 0 when the DER is malformed or r/s do not fit.
int cshims_ecdsa_der_to_raw(const uint8_t *der, size_t derlen, uint8_t *out, size_t half);

/// PEM encodings of a private key. `sec1` selects the traditional "EC PRIVATE KEY" form (EC keys only);
/// otherwise PKCS#8 "PRIVATE KEY". Returns a NUL-terminated string to free with cshims_openssl_free
/// (its contents are cleansed first by cshims_clear_free_string), or NULL on failure.
char *cshims_private_key_pem(EVP_PKEY *pkey, int sec1);

/// Cleanses and frees a string returned by cshims_private_key_pem.
void cshims_clear_free_string(char *str);

/// Encodes a private key as PKCS#8 DER. Returns the length and sets *out (free with
/// cshims_clear_free(*out, len)), or 0 on failure.
size_t cshims_private_key_pkcs8_der(EVP_PKEY *pkey, uint8_t **out);

/// OPENSSL_clear_free is a macro; this is a callable wrapper.
void cshims_clear_free(void *ptr, size_t len);
#endif
