import COpenSSL
import COpenSSLShims

/// The key types the verifier handles.
///
/// The NIST and brainpool curves serve ECDSA and ECDH (ISO/IEC 18013-5 allows both for issuer and device keys),
/// X25519 serves HPKE, Ed25519 serves EdDSA.
public enum Curve: String, Sendable, CaseIterable {
    /// NIST P-256 (secp256r1).
    case p256 = "P-256"
    /// NIST P-384 (secp384r1).
    case p384 = "P-384"
    /// NIST P-521 (secp521r1).
    case p521 = "P-521"
    /// The brainpoolP256r1 curve (RFC 5639).
    case brainpoolP256r1
    /// The brainpoolP320r1 curve (RFC 5639).
    case brainpoolP320r1
    /// The brainpoolP384r1 curve (RFC 5639).
    case brainpoolP384r1
    /// The brainpoolP512r1 curve (RFC 5639).
    case brainpoolP512r1
    /// X25519 for key agreement (RFC 7748), as HPKE uses it.
    case x25519 = "X25519"
    /// Ed25519 for EdDSA signatures (RFC 8032).
    case ed25519 = "Ed25519"

    /// The length in bytes of one field element or scalar (x, y, d) on this curve.
    public var coordinateByteCount: Int {
        switch self {
        case .p256, .brainpoolP256r1, .x25519, .ed25519: return 32
        case .brainpoolP320r1: return 40
        case .p384, .brainpoolP384r1: return 48
        case .brainpoolP512r1: return 64
        case .p521: return 66
        }
    }

    /// True for the short-Weierstrass curves, NIST and brainpool (COSE kty EC2; ECDSA and ECDH).
    public var isEC: Bool {
        switch self {
        case .p256, .p384, .p521, .brainpoolP256r1, .brainpoolP320r1, .brainpoolP384r1, .brainpoolP512r1: return true
        case .x25519, .ed25519: return false
        }
    }

    /// OpenSSL group name for the EC curves, key type name for the others: the raw value, but "ED25519".
    var opensslName: String { self == .ed25519 ? "ED25519" : rawValue }

    /// The hash ECDSA pairs with this curve in ISO/IEC 18013-5 (ES256 / ES384 / ES512), also used for X.509 signing;
    /// nil for X25519 and Ed25519.
    public var ecdsaDigest: DigestAlgorithm? {
        switch self {
        case .p256, .brainpoolP256r1: return .sha256
        case .p384, .brainpoolP320r1, .brainpoolP384r1: return .sha384
        case .p521, .brainpoolP512r1: return .sha512
        case .x25519, .ed25519: return nil
        }
    }

    /// The length of the public key encoding used by `PublicKey.uncompressedPoint`.
    ///
    /// 0x04 || X || Y for the NIST and brainpool curves, the raw 32-byte key for X25519/Ed25519.
    public var publicKeyByteCount: Int {
        isEC ? 1 + 2 * coordinateByteCount : coordinateByteCount
    }

    /// A shared EVP_PKEY holding only this NIST curve's domain parameters (import template).
    var parameterTemplate: OpaquePointer {
        switch self {
        case .p256: return CurveTemplates.p256
        case .p384: return CurveTemplates.p384
        case .p521: return CurveTemplates.p521
        case .brainpoolP256r1: return CurveTemplates.brainpoolP256r1
        case .brainpoolP320r1: return CurveTemplates.brainpoolP320r1
        case .brainpoolP384r1: return CurveTemplates.brainpoolP384r1
        case .brainpoolP512r1: return CurveTemplates.brainpoolP512r1
        case .x25519, .ed25519: preconditionFailure("\(rawValue) has no EC parameters")
        }
    }

    /// The curve of an OpenSSL key, or nil for a key type we do not support (RSA, Ed448, other curves).
    static func of(_ pkey: OpaquePointer) -> Curve? {
        if EVP_PKEY_is_a(pkey, "X25519") == 1 { return .x25519 }
        if EVP_PKEY_is_a(pkey, "ED25519") == 1 { return .ed25519 }
        guard EVP_PKEY_is_a(pkey, "EC") == 1 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { name -> Curve? in
            var length = 0
            guard EVP_PKEY_get_group_name(pkey, name.baseAddress, name.count, &length) == 1,
                  length < name.count
            else { return nil }
            let bytes = UnsafeRawBufferPointer(start: name.baseAddress, count: length)
            switch String(decoding: bytes, as: UTF8.self) {
            case "prime256v1", "P-256", "secp256r1": return .p256
            case "secp384r1", "P-384": return .p384
            case "secp521r1", "P-521": return .p521
            case "brainpoolP256r1": return .brainpoolP256r1
            case "brainpoolP320r1": return .brainpoolP320r1
            case "brainpoolP384r1": return .brainpoolP384r1
            case "brainpoolP512r1": return .brainpoolP512r1
            default: return nil
            }
        }
    }
}

/// Per-curve parameter-only EVP_PKEYs, created once and only ever read (safe to share between threads).
enum CurveTemplates {
    nonisolated(unsafe) static let p256: OpaquePointer = make("P-256")
    nonisolated(unsafe) static let p384: OpaquePointer = make("P-384")
    nonisolated(unsafe) static let p521: OpaquePointer = make("P-521")
    nonisolated(unsafe) static let brainpoolP256r1: OpaquePointer = make("brainpoolP256r1")
    nonisolated(unsafe) static let brainpoolP320r1: OpaquePointer = make("brainpoolP320r1")
    nonisolated(unsafe) static let brainpoolP384r1: OpaquePointer = make("brainpoolP384r1")
    nonisolated(unsafe) static let brainpoolP512r1: OpaquePointer = make("brainpoolP512r1")

    private static func make(_ group: String) -> OpaquePointer {
        guard let pkey = cshims_ec_parameters(group) else { fatalError("OpenSSL does not support \(group)") }
        return pkey
    }
}
