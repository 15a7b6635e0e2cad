/// An error from the OpenSSL-backed primitives.
///
/// Messages never contain key material.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The category of a `CryptoError`.
    public enum Kind: String, Sendable {
        /// A key was rejected: wrong length, not on the curve, the identity, or an unsupported key type.
        case invalidKey            // wrong length, not on the curve, identity, unsupported type
        /// The operation is not available for this algorithm or key type (e.g. signing with an X25519 key).
        case unsupportedAlgorithm
        /// The input was malformed: bad PEM or DER, wrong lengths, out-of-range parameters.
        case invalidInput          // malformed PEM/DER, wrong lengths
        /// An AEAD tag did not match: the ciphertext, nonce, key or associated data is wrong.
        case authenticationFailed  // AEAD tag mismatch
        /// OpenSSL reported an unexpected failure.
        case internalFailure       // OpenSSL reported an unexpected failure
    }
    /// The category of the error.
    public let kind: Kind
    /// A human-readable explanation, for logs and reports.
    public let message: String

    /// Creates an error of `kind` with `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and message, as `"kind: message"`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
