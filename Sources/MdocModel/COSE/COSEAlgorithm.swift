import CryptoCore

/// COSE algorithm identifiers used by mdoc (RFC 9053, RFC 9864 fully specified ids, ISO 18013-5 §9.1.2.4 / §9.1.3.5).
public enum COSEAlgorithm: Int64, Sendable, CaseIterable {
    /// ES256: ECDSA with SHA-256.
    case es256 = -7
    /// ES384: ECDSA with SHA-384.
    case es384 = -35
    /// ES512: ECDSA with SHA-512.
    case es512 = -36
    /// EdDSA (polymorphic); verified here with Ed25519 keys only.
    case edDSA = -8
    /// ESP256: ECDSA with P-256 and SHA-256 (fully specified).
    case esp256 = -9
    /// ESP384: ECDSA with P-384 and SHA-384 (fully specified).
    case esp384 = -51
    /// ESP512: ECDSA with P-521 and SHA-512 (fully specified).
    case esp512 = -52
    /// Ed25519: EdDSA with the Ed25519 curve (fully specified).
    case ed25519 = -19
    /// HMAC 256/256: HMAC with SHA-256 and a full-length tag, the only algorithm accepted for `deviceMac`.
    case hmac256 = 5

    /// The algorithm's name as reports write it, e.g. `ES256`.
    public var name: String {
        switch self {
        case .es256: return "ES256"
        case .es384: return "ES384"
        case .es512: return "ES512"
        case .edDSA: return "EdDSA"
        case .esp256: return "ESP256"
        case .esp384: return "ESP384"
        case .esp512: return "ESP512"
        case .ed25519: return "Ed25519"
        case .hmac256: return "HMAC 256/256"
        }
    }

    /// The key curves and hash a signature algorithm allows; nil for MAC algorithms. ES256/384/512 follow ISO/IEC
    /// 18013-5's pairing (P-256 and brainpoolP256r1 with ES256; P-384, brainpoolP320r1 and brainpoolP384r1 with ES384;
    /// P-521 and brainpoolP512r1 with ES512); the fully specified ESP256/384/512 name their NIST curve only. A key on
    /// another curve is a mismatch.
    public var signatureParameters: (curves: [Curve], digest: DigestAlgorithm)? {
        switch self {
        case .es256: return ([.p256, .brainpoolP256r1], .sha256)
        case .es384: return ([.p384, .brainpoolP320r1, .brainpoolP384r1], .sha384)
        case .es512: return ([.p521, .brainpoolP512r1], .sha512)
        case .esp256: return ([.p256], .sha256)
        case .esp384: return ([.p384], .sha384)
        case .esp512: return ([.p521], .sha512)
        case .edDSA, .ed25519: return ([.ed25519], .sha512)
        case .hmac256: return nil
        }
    }

    /// The algorithm for signing with a key on `curve` (used when we build structures).
    public static func signing(with curve: Curve) -> COSEAlgorithm? {
        switch curve {
        case .ed25519: return .edDSA
        case .x25519: return nil
        default:
            switch curve.ecdsaDigest {
            case .sha256: return .es256
            case .sha384: return .es384
            case .sha512: return .es512
            case nil: return nil
            }
        }
    }
}
