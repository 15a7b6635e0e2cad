import CryptoCore
import Foundation
import MdocModel

/// The verifier's P-256 response encryption key as a JWK in `client_metadata.jwks` (OpenID4VP 1.0 §5.1, §8.3):
/// `kty`, `crv`, `x`, `y`, `use: enc`, `alg: ECDH-ES` and a `kid`. Its RFC 7638 thumbprint binds `dc_api.jwt`
/// responses to this key in the session transcript (docs/formats.md §7.4).
public struct EncryptionJWK: Sendable, Equatable {
    /// The key identifier published as `kid`.
    public let kid: String
    /// The base64url x coordinate exactly as published (the thumbprint hashes the coordinate strings).
    public let x: String
    /// The base64url y coordinate exactly as published.
    public let y: String

    /// Creates the JWK of a P-256 public key with identifier `kid`.
    ///
    /// Throws `input.malformed` when the key is not P-256.
    public init(publicKey: PublicKey, kid: String) throws(VerificationError) {
        let point = publicKey.uncompressedPoint
        guard publicKey.curve == .p256, point.count == 65 else {
            throw VerificationError(.inputMalformed, "the response encryption key must be P-256")
        }
        self.init(kid: kid, x: Base64URL.encode(point[1...32]), y: Base64URL.encode(point[33...64]))
    }

    /// Creates a JWK from its members as published (for example from kept request state), without validating them.
    public init(kid: String, x: String, y: String) {
        self.kid = kid
        self.x = x
        self.y = y
    }

    /// The P-256 public key the coordinates describe (what a wallet encrypts to).
    ///
    /// Throws `input.malformed` when the coordinates are not a P-256 point.
    public func publicKey() throws(VerificationError) -> PublicKey {
        guard let x = Base64URL.decodeStrict(x), let y = Base64URL.decodeStrict(y), x.count == 32, y.count == 32,
              let key = try? PublicKey(curve: .p256, x: x, y: y)
        else { throw VerificationError(.inputMalformed, "the JWK is not a P-256 public key") }
        return key
    }

    /// The SHA-256 JWK thumbprint (RFC 7638 §3.2, `JWKThumbprint`), over the coordinates as published.
    public var thumbprint: [UInt8] {
        Digest.hash(.sha256, Array(JWKThumbprint.ecJSON(crv: "P-256", x: x, y: y).utf8))
    }

    /// The JWK as published in `client_metadata.jwks`: `kty`, `crv`, `x`, `y`, `use`, `alg` and `kid`.
    public var json: JSONValue {
        .object([("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(x)), ("y", .string(y)),
                 ("use", .string("enc")), ("alg", .string("ECDH-ES")), ("kid", .string(kid))])
    }
}
