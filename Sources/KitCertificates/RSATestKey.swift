#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims
import CryptoCore

/// An RSA key pair for test material only: a Document Signer whose key ISO/IEC 18013-5 does not allow, so a case can
/// carry a valid signature under an algorithm a verifier must refuse (PS256). The verifier itself never signs with
/// RSA, and `PrivateKey` stays EC/EdDSA-only.
public final class RSATestKey: @unchecked Sendable {
    /// The owned EVP_PKEY; freed in deinit.
    let pkey: OpaquePointer

    /// A fresh key of `bits` bits (2048 by default).
    public init(bits: Int = 2048) throws {
        defer { ERR_clear_error() }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw CryptoError(.internalFailure, "EVP_PKEY_CTX_new_from_name(RSA) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        // OSSL_PARAM keeps both pointers until the call that reads it, so both outlive it.
        guard let name = strdup("bits") else { throw CryptoError(.internalFailure, "strdup failed") }
        defer { free(name) }
        let size = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        size.initialize(to: UInt32(bits))
        defer { size.deallocate() }
        let parameters = [OSSL_PARAM_construct_uint(name, size), OSSL_PARAM_construct_end()]
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_params(context, parameters) == 1,
              EVP_PKEY_generate(context, &generated) == 1, let generated
        else { throw CryptoError(.internalFailure, "RSA key generation failed") }
        pkey = generated
    }

    deinit { EVP_PKEY_free(pkey) }

    /// One key per process, made on first use (key generation takes tens of milliseconds).
    public static func shared() throws -> RSATestKey {
        guard let key = sharedKey else { throw CryptoError(.internalFailure, "RSA key generation failed") }
        return key
    }

    private static let sharedKey = try? RSATestKey()

    /// RSASSA-PSS over `message` with `digest`, a salt as long as the digest and MGF1 with the same digest (JWS and
    /// COSE PS256/384/512).
    public func signPSS(_ message: [UInt8], digest: DigestAlgorithm) throws -> [UInt8] {
        try withExtendedLifetime(self) {
            defer { ERR_clear_error() }
            guard let context = EVP_MD_CTX_new() else { throw CryptoError(.internalFailure, "EVP_MD_CTX_new failed") }
            defer { EVP_MD_CTX_free(context) }
            var keyContext: OpaquePointer?
            guard EVP_DigestSignInit_ex(context, &keyContext, RSASignature.digestName(digest), nil, nil, pkey, nil) == 1, let keyContext,
                  EVP_PKEY_CTX_set_params(keyContext, RSASignature.pssParameters(digest)) == 1
            else { throw CryptoError(.internalFailure, "RSA-PSS signing setup failed") }
            var length = 0
            guard EVP_DigestSign(context, nil, &length, message, message.count) == 1, length > 0 else {
                throw CryptoError(.internalFailure, "RSA-PSS signing failed")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
                throw CryptoError(.internalFailure, "RSA-PSS signing failed")
            }
            return Array(signature.prefix(length))
        }
    }
}
