import CryptoCore
import MdocModel

/// RFC 7638 JWK SHA-256 thumbprint of a public key, for the `jwkThumbprint` of the OpenID4VP handovers
/// (OpenID4VP 1.0 Appendix B.2.6). The hash input is the JSON of the required members in lexicographic
/// order without whitespace (RFC 7638 §3.2): EC `{"crv","kty","x","y"}`, OKP `{"crv","kty","x"}` (RFC 8037 §2).
public enum JWKThumbprint {
    /// The RFC 7638 SHA-256 thumbprint of `key`: SHA-256 of `canonicalJSON(_:)`.
    public static func sha256(_ key: PublicKey) -> [UInt8] {
        Digest.hash(.sha256, Array(canonicalJSON(key).utf8))
    }

    /// The exact JSON that is hashed. `Curve.rawValue` is the JOSE `crv` name (RFC 7518 §6.2.1.1, RFC 8037 §2).
    public static func canonicalJSON(_ key: PublicKey) -> String {
        let point = key.uncompressedPoint
        switch key.curve {
        case _ where key.curve.isEC:
            let size = key.curve.coordinateByteCount
            return ecJSON(crv: key.curve.rawValue, x: Base64URL.encode(point[1 ..< 1 + size]), y: Base64URL.encode(point[(1 + size)...]))
        default:
            return #"{"crv":"\#(key.curve.rawValue)","kty":"OKP","x":"\#(Base64URL.encode(point))"}"#
        }
    }

    /// The hashed JSON of an EC JWK from its members as published (base64url coordinates copied verbatim).
    public static func ecJSON(crv: String, x: String, y: String) -> String {
        #"{"crv":"\#(crv)","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }
}
