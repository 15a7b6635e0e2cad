/// A stable rejection code, `area.name`. A code never changes meaning; new situations get new codes.
///
/// A struct rather than an enum so the set can grow without breaking a client's exhaustive `switch`, and so each
/// layer declares the codes it raises: the mdoc checks here, the format front doors (`envelope.*`, `hpke.*`) in
/// `Verifier`, and the server's own (`nonce.*`, `store.*`) in `VerifyServer`. Compare with `==` or match in a
/// `switch` with a `default`.
public struct ErrorCode: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The code as written in reports, logs and metrics, e.g. `issuer.signature_invalid`.
    public let rawValue: String

    /// Declares a code; only the module that raises it does so.
    package init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

// MARK: - Codes raised by the ISO/IEC 18013-5 checks (this module)

extension ErrorCode {
    /// Input that is not what the caller said it is (not CBOR, not a transcript, a value out of range).
    public static let inputMalformed = ErrorCode("input.malformed")
    public static let responseMalformed = ErrorCode("response.malformed")
    public static let responseStatus = ErrorCode("response.status")
    public static let issuerChainUntrusted = ErrorCode("issuer.chain_untrusted")
    public static let issuerCertificateExpired = ErrorCode("issuer.certificate_expired")
    public static let issuerCertificateProfile = ErrorCode("issuer.certificate_profile")
    public static let issuerSignatureInvalid = ErrorCode("issuer.signature_invalid")
    public static let issuerAlgorithmUnsupported = ErrorCode("issuer.algorithm_unsupported")
    public static let issuerContentMismatch = ErrorCode("issuer.content_mismatch")
    /// A COSE header breaks RFC 9052 §3: `crit` unprotected or listing a label the verifier does not process,
    /// `alg` unprotected, or a label in both headers (issuerAuth, deviceSignature or deviceMac; the detail says which).
    public static let coseHeaderInvalid = ErrorCode("cose.header_invalid")
    public static let msoMalformed = ErrorCode("mso.malformed")
    public static let msoDocTypeMismatch = ErrorCode("mso.doctype_mismatch")
    public static let msoNotYetValid = ErrorCode("mso.not_yet_valid")
    public static let msoExpired = ErrorCode("mso.expired")
    public static let msoDigestAlgorithmUnsupported = ErrorCode("mso.digest_algorithm_unsupported")
    public static let digestMismatch = ErrorCode("digest.mismatch")
    public static let digestMissing = ErrorCode("digest.missing")
    public static let digestDuplicate = ErrorCode("digest.duplicate")
    public static let deviceAuthMissing = ErrorCode("device.auth_missing")
    public static let deviceSignatureInvalid = ErrorCode("device.signature_invalid")
    public static let deviceMacInvalid = ErrorCode("device.mac_invalid")
    public static let deviceKeyUnauthorized = ErrorCode("device.key_unauthorized")
    public static let policyDocTypeNotRequested = ErrorCode("policy.doctype_not_requested")
    public static let policyElementNotRequested = ErrorCode("policy.element_not_requested")
    /// More documents of a docType than the request asks for (a request names each docType once).
    public static let policyDocTypeRepeated = ErrorCode("policy.doctype_repeated")
    /// An element value does not have the data type its namespace defines for it (the detail names the element).
    public static let elementTypeInvalid = ErrorCode("element.type_invalid")
    /// A reader's ReaderAuth signature does not verify (ISO/IEC 18013-5 §9.1.4).
    public static let readerAuthSignatureInvalid = ErrorCode("reader_auth.signature_invalid")
    /// A reader's certificate does not chain to a trusted reader root, or is not an mdoc reader certificate.
    public static let readerAuthChainUntrusted = ErrorCode("reader_auth.chain_untrusted")

    /// Every code this module raises.
    public static let mdocCodes: [ErrorCode] = [
        .inputMalformed, .responseMalformed, .responseStatus, .issuerChainUntrusted, .issuerCertificateExpired,
        .issuerCertificateProfile, .issuerSignatureInvalid, .issuerAlgorithmUnsupported, .issuerContentMismatch,
        .coseHeaderInvalid, .msoMalformed, .msoDocTypeMismatch, .msoNotYetValid, .msoExpired, .msoDigestAlgorithmUnsupported,
        .digestMismatch, .digestMissing, .digestDuplicate, .deviceAuthMissing, .deviceSignatureInvalid, .deviceMacInvalid,
        .deviceKeyUnauthorized, .policyDocTypeNotRequested, .policyElementNotRequested, .policyDocTypeRepeated, .elementTypeInvalid,
        .readerAuthSignatureInvalid, .readerAuthChainUntrusted,
    ]
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
