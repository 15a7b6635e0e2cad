import CryptoCore

/// The JWS `alg` values the product signs or verifies (RFC 7518 §3): asymmetric only, never `none` or an HMAC.
package enum JWSAlgorithm: String, CaseIterable, Sendable {
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"

    /// The ECDSA algorithms, the only ones a request object is signed with.
    package static let ecdsa: [JWSAlgorithm] = [.es256, .es384, .es512]

    package var digest: DigestAlgorithm {
        switch self {
        case .es256, .rs256, .ps256: .sha256
        case .es384, .rs384, .ps384: .sha384
        case .es512, .rs512, .ps512: .sha512
        }
    }

    /// The curve an ECDSA algorithm signs on; nil for RSA.
    package var curve: Curve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        default: nil
        }
    }

    /// The ECDSA algorithm a key on `curve` signs with; nil for a curve JWS has no ECDSA algorithm for.
    package init?(signingWith curve: Curve) {
        guard let algorithm = Self.ecdsa.first(where: { $0.curve == curve }) else { return nil }
        self = algorithm
    }

    /// Whether `signature` (ECDSA as r || s, RFC 7518 §3.4) over `input` verifies with `certificate`'s key.
    /// - Throws: `.signatureInvalid` when the key does not fit the algorithm (another curve, an RSA key outside the
    ///   accepted sizes).
    package func isValid(_ signature: [UInt8], for input: [UInt8], by certificate: Certificate) throws(JOSEError) -> Bool {
        if let curve {
            guard let key = try? certificate.publicKey(), key.curve == curve else {
                throw JOSEError(.signatureInvalid, "\(rawValue) does not fit the signer's key (\(certificate.publicKeyAlgorithmOID))")
            }
            return key.isValidSignature(signature, for: input, digest: digest)
        }
        guard let bits = RSASignature.modulusBits(of: certificate) else {
            throw JOSEError(.signatureInvalid, "\(rawValue) needs an RSA signer key; the signer's is \(certificate.publicKeyAlgorithmOID)")
        }
        guard (RSASignature.minimumModulusBits ... RSASignature.maximumModulusBits).contains(bits) else {
            throw JOSEError(.signatureInvalid, "the signer's RSA key has \(bits) bits; \(RSASignature.minimumModulusBits) "
                            + "to \(RSASignature.maximumModulusBits) are accepted")
        }
        return RSASignature.isValid(signature, for: input, certificate: certificate, digest: digest,
                                    padding: rawValue.hasPrefix("PS") ? .pss : .pkcs1v15)
    }
}
