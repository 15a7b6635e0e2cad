/// What is wrong with a JWS or JWE. JOSE serves several areas (an OpenID4VP response, a LoTE, a request object a
/// wallet reads), so the caller names the failure with its own error code; the message is the same everywhere.
package struct JOSEError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Not the serialization: segments, base64url, header JSON, a member missing or of the wrong JSON type.
        case malformed
        /// The `alg` is not one accepted, the key does not fit it, or the signature does not verify.
        case signatureInvalid
        /// A JWE `epk` that is not a P-256 point.
        case ephemeralKeyInvalid
        /// A JWE `enc` this verifier does not implement.
        case encryptionUnsupported
        /// ECDH or AES-GCM open failed.
        case decryptionFailed
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
