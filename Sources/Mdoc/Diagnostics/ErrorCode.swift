/// Stable rejection codes shared by the library, the CLI and the server. A code never changes meaning;
/// new situations get new codes.
public enum ErrorCode: String, Sendable, Codable, CaseIterable, Comparable {
    case inputMalformed = "input.malformed"
    case envelopeUnsupported = "envelope.unsupported"
    case envelopeRecipientMismatch = "envelope.recipient_mismatch"
    case envelopeTestKey = "envelope.test_key"
    case envelopeTranscriptMismatch = "envelope.transcript_mismatch"
    case hpkeOpenFailed = "hpke.open_failed"
    case responseMalformed = "response.malformed"
    case responseStatus = "response.status"
    case issuerChainUntrusted = "issuer.chain_untrusted"
    case issuerCertificateExpired = "issuer.certificate_expired"
    case issuerCertificateProfile = "issuer.certificate_profile"
    case issuerSignatureInvalid = "issuer.signature_invalid"
    case issuerAlgorithmUnsupported = "issuer.algorithm_unsupported"
    case issuerContentMismatch = "issuer.content_mismatch"
    case msoMalformed = "mso.malformed"
    case msoDocTypeMismatch = "mso.doctype_mismatch"
    case msoNotYetValid = "mso.not_yet_valid"
    case msoExpired = "mso.expired"
    case msoDigestAlgorithmUnsupported = "mso.digest_algorithm_unsupported"
    case digestMismatch = "digest.mismatch"
    case digestMissing = "digest.missing"
    case digestDuplicate = "digest.duplicate"
    case deviceAuthMissing = "device.auth_missing"
    case deviceSignatureInvalid = "device.signature_invalid"
    case deviceMacInvalid = "device.mac_invalid"
    case deviceKeyUnauthorized = "device.key_unauthorized"
    case policyDocTypeNotRequested = "policy.doctype_not_requested"
    case policyElementNotRequested = "policy.element_not_requested"
    /// An element value does not have the data type its namespace defines for it (the detail names the element).
    case elementTypeInvalid = "element.type_invalid"
    case nonceUnknown = "nonce.unknown"
    case nonceReplayed = "nonce.replayed"
    case nonceExpired = "nonce.expired"
    /// The server's request store did not answer in time (HTTP 503); the request was not consumed by this call.
    case storeUnavailable = "store.unavailable"
    /// A reader's ReaderAuth signature does not verify (ISO/IEC 18013-5 §9.1.4).
    case readerAuthSignatureInvalid = "reader_auth.signature_invalid"
    /// A reader's certificate does not chain to a trusted reader root, or is not an mdoc reader certificate.
    case readerAuthChainUntrusted = "reader_auth.chain_untrusted"

    public static func < (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A rejection: a stable code plus a message for humans. Messages never carry element values or keys.
public struct VerificationError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
