import COpenSSL
import COpenSSLShims

/// RSA signature verification with a certificate's key: what signed trust lists use (the European Commission signs
/// its Lists of Trusted Entities with RS512). Only verification: the verifier never signs with RSA, and `PublicKey`
/// stays EC/EdDSA-only.
public enum RSASignature {
    /// The padding of an RSA signature: PKCS #1 v1.5 (JWS RS256/384/512) or PSS with a salt as long as the digest
    /// and MGF1 with the same digest (JWS PS256/384/512, RFC 7518 §3.5).
    public enum Padding: Sendable {
        /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2): JWS RS256, RS384, RS512.
        case pkcs1v15
        /// RSASSA-PSS (RFC 8017 §8.1), salt as long as the digest, MGF1 with the same digest: JWS PS256, PS384, PS512.
        case pss
    }

    /// The smallest modulus accepted, in bits.
    public static let minimumModulusBits = 2048
    /// The largest modulus accepted, in bits (a bound on the work one signature costs).
    public static let maximumModulusBits = 8192

    /// The modulus size of `certificate`'s key when it is an RSA key (rsaEncryption), nil otherwise.
    public static func modulusBits(of certificate: Certificate) -> Int? {
        withExtendedLifetime(certificate) {
            guard let pkey = X509_get0_pubkey(certificate.x509) else {
                ERR_clear_error()
                return nil
            }
            guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA else { return nil }
            return Int(EVP_PKEY_get_bits(pkey))
        }
    }

    /// Whether `signature` is a valid RSA signature over `message` with `certificate`'s key. False for a key that is
    /// not RSA, a modulus outside `minimumModulusBits ... maximumModulusBits`, or a signature that does not verify.
    public static func isValid(_ signature: [UInt8], for message: [UInt8], certificate: Certificate, digest: DigestAlgorithm,
                               padding: Padding) -> Bool {
        guard let bits = modulusBits(of: certificate), (minimumModulusBits ... maximumModulusBits).contains(bits) else { return false }
        return withExtendedLifetime(certificate) {
            defer { ERR_clear_error() }
            guard let pkey = X509_get0_pubkey(certificate.x509), let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            var keyContext: OpaquePointer?
            guard EVP_DigestVerifyInit_ex(context, &keyContext, digestName(digest), nil, nil, pkey, nil) == 1, let keyContext else {
                return false
            }
            if padding == .pss {
                guard EVP_PKEY_CTX_set_params(keyContext, pssParameters(digest)) == 1 else { return false }
            }
            return signature.withUnsafeBufferPointer { signature in
                message.withUnsafeBufferPointer { message in
                    EVP_DigestVerify(context, signature.baseAddress, signature.count, message.baseAddress, message.count) == 1
                }
            }
        }
    }

    package static func digestName(_ digest: DigestAlgorithm) -> String {
        switch digest {
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// PSS padding, salt length = digest length, MGF1 with the message digest. The strings live for the process, so
    /// the parameters may point at them.
    package static func pssParameters(_ digest: DigestAlgorithm) -> [OSSL_PARAM] {
        let mgf1: UnsafeMutablePointer<CChar>
        switch digest {
        case .sha256: mgf1 = Names.sha256
        case .sha384: mgf1 = Names.sha384
        case .sha512: mgf1 = Names.sha512
        }
        return [
            // The keys too: OSSL_PARAM keeps the pointer, and a Swift string literal's lives only for the call.
            OSSL_PARAM_construct_utf8_string(Names.padMode, Names.pss, 0),
            OSSL_PARAM_construct_utf8_string(Names.saltLength, Names.digest, 0),
            OSSL_PARAM_construct_utf8_string(Names.mgf1Digest, mgf1, 0),
            OSSL_PARAM_construct_end(),
        ]
    }

    /// NUL-terminated parameter names and values, allocated once and never freed.
    private enum Names {
        nonisolated(unsafe) static let padMode = make("pad-mode")
        nonisolated(unsafe) static let saltLength = make("saltlen")
        nonisolated(unsafe) static let mgf1Digest = make("mgf1-digest")
        nonisolated(unsafe) static let pss = make("pss")
        nonisolated(unsafe) static let digest = make("digest")
        nonisolated(unsafe) static let sha256 = make("SHA256")
        nonisolated(unsafe) static let sha384 = make("SHA384")
        nonisolated(unsafe) static let sha512 = make("SHA512")

        static func make(_ text: String) -> UnsafeMutablePointer<CChar> {
            let bytes = Array(text.utf8CString)
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            return buffer
        }
    }
}
