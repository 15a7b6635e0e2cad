import COpenSSL

/// The outcome of `TrustStore.validate(leaf:intermediates:at:)`.
public enum ChainValidationResult: Sendable {
    /// The path found by OpenSSL: leaf first, trust anchor last.
    case trusted(chain: [Certificate])
    /// No path to a trust anchor validated; the associated value says why.
    case failed(ChainValidationFailure)

    /// True when the chain validated.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }
}

/// Why path validation failed.
///
/// OpenSSL stops at the first error it meets, so only one reason is reported.
public struct ChainValidationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of a path validation failure, mapped from OpenSSL's X509_V_ERR_* codes.
    public enum Reason: String, Sendable {
        /// No path leads to a configured trust anchor (issuer not found, untrusted or unexpected self-signed
        /// certificate).
        case noTrustedAnchor
        /// A certificate's validity period has ended at the validation time.
        case expired
        /// A certificate's validity period has not begun at the validation time.
        case notYetValid
        /// A certificate's signature does not verify with its issuer's key.
        case signatureInvalid
        /// An issuing certificate is not a CA or may not sign certificates (basicConstraints or keyUsage).
        case notACA
        /// A basicConstraints path length constraint is exceeded.
        case pathLengthExceeded
        /// A certificate has a critical extension OpenSSL does not handle.
        case unhandledCriticalExtension
        /// A certificate is malformed: unreadable validity times, issuer key, extensions or signature algorithm.
        case invalidCertificate
        /// Any other failure, including internal OpenSSL errors.
        case other
    }

    /// The category of the failure.
    public let reason: Reason
    /// Position in the chain of the certificate concerned: 0 = leaf.
    public let depth: Int
    /// OpenSSL's error text and the subject of the certificate concerned.
    public let message: String
    /// OpenSSL's X509_V_ERR_* code (0 when the failure did not come from X509_verify_cert), for logs.
    public let opensslErrorCode: Int

    /// Creates a failure; `opensslErrorCode` is 0 when the failure did not come from OpenSSL's path validation.
    public init(reason: Reason, depth: Int, message: String, opensslErrorCode: Int = 0) {
        self.reason = reason
        self.depth = depth
        self.message = message
        self.opensslErrorCode = opensslErrorCode
    }

    /// The reason, depth and message, as "reason at depth N: message".
    public var description: String { "\(reason.rawValue) at depth \(depth): \(message)" }

    /// Maps an X509_V_ERR_* code.
    static func reason(forVerifyError code: Int32) -> Reason {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return .expired
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED:
            return .noTrustedAnchor
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            return .signatureInvalid
        case X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
            return .notACA
        case X509_V_ERR_PATH_LENGTH_EXCEEDED:
            return .pathLengthExceeded
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
            return .unhandledCriticalExtension
        case X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD,
             X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, X509_V_ERR_INVALID_EXTENSION,
             X509_V_ERR_INVALID_POLICY_EXTENSION, X509_V_ERR_EC_KEY_EXPLICIT_PARAMS,
             X509_V_ERR_UNSUPPORTED_SIGNATURE_ALGORITHM, X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH:
            return .invalidCertificate
        default:
            return .other
        }
    }
}
