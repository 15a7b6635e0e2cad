/// Errors from the OpenSSL-backed primitives. Messages never contain key material.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case invalidKey            // wrong length, not on the curve, identity, unsupported type
        case unsupportedAlgorithm
        case invalidInput          // malformed PEM/DER, wrong lengths
        case authenticationFailed  // AEAD tag mismatch
        case internalFailure       // OpenSSL reported an unexpected failure
    }
    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
