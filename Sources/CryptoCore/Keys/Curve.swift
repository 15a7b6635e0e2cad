import COpenSSL
import COpenSSLShims

/// The key types the verifier handles: NIST curves for ECDSA/ECDH, X25519 for HPKE, Ed25519 for EdDSA.
public enum Curve: String, Sendable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    case x25519 = "X25519"
    case ed25519 = "Ed25519"

    /// Bytes of one field element / scalar (x, y, d) for this curve.
    public var coordinateByteCount: Int {
        switch self {
        case .p256, .x25519, .ed25519: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    /// True for the short-Weierstrass NIST curves (COSE kty EC2).
    public var isNIST: Bool {
        switch self {
        case .p256, .p384, .p521: return true
        case .x25519, .ed25519: return false
        }
    }

    /// OpenSSL group name for NIST curves, key type name for the others.
    var opensslName: String {
        switch self {
        case .p256: return "P-256"
        case .p384: return "P-384"
        case .p521: return "P-521"
        case .x25519: return "X25519"
        case .ed25519: return "ED25519"
        }
    }

    /// Length of the public key encoding used by `PublicKey.uncompressedPoint`:
    /// 0x04 || X || Y for the NIST curves, the raw 32-byte key for X25519/Ed25519.
    public var publicKeyByteCount: Int {
        isNIST ? 1 + 2 * coordinateByteCount : coordinateByteCount
    }

    /// Length of a raw signature: r || s for ECDSA, 64 bytes for Ed25519. Nil for X25519.
    public var signatureByteCount: Int? {
        switch self {
        case .p256, .p384, .p521: return 2 * coordinateByteCount
        case .ed25519: return 64
        case .x25519: return nil
        }
    }

    /// A shared EVP_PKEY holding only this NIST curve's domain parameters (import template).
    var parameterTemplate: OpaquePointer {
        switch self {
        case .p256: return CurveTemplates.p256
        case .p384: return CurveTemplates.p384
        case .p521: return CurveTemplates.p521
        case .x25519, .ed25519: preconditionFailure("\(rawValue) has no EC parameters")
        }
    }

    /// The curve of an OpenSSL key, or nil for a key type we do not support (RSA, brainpool, …).
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

    private static func make(_ group: String) -> OpaquePointer {
        guard let pkey = cshims_ec_parameters(group) else { fatalError("OpenSSL does not support \(group)") }
        return pkey
    }
}
