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

    /// The code as written (`rawValue`).
    public var description: String { rawValue }

    /// Orders codes by their raw value.
    public static func < (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes a code from its string form.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the code as its string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

// MARK: - Codes raised by the ISO/IEC 18013-5 checks (this module)

extension ErrorCode {
    /// Input that is not what the caller said it is (not CBOR, not a transcript, a value out of range).
    public static let inputMalformed = ErrorCode("input.malformed")
    /// The DeviceResponse or one of its Documents is not the structure ISO/IEC 18013-5 defines, or is inconsistent (the
    /// detail says which part).
    public static let responseMalformed = ErrorCode("response.malformed")
    /// The DeviceResponse `status` is not 0 (OK), or the response holds no documents.
    public static let responseStatus = ErrorCode("response.status")
    /// The document signer does not chain to a trusted anchor, the anchor may not vouch for the docType, or issuerAuth
    /// carries no certificate.
    public static let issuerChainUntrusted = ErrorCode("issuer.chain_untrusted")
    /// A certificate of the issuer's path is expired or not yet valid at the verification time, or the MSO was signed
    /// outside the document signer's validity.
    public static let issuerCertificateExpired = ErrorCode("issuer.certificate_expired")
    /// The document signer or its IACA breaks the ISO/IEC 18013-5 Annex B certificate profile in a way the configured
    /// `CertificateProfile` does not accept.
    public static let issuerCertificateProfile = ErrorCode("issuer.certificate_profile")
    /// issuerAuth's signature over the MSO does not verify with the document signer's key, or the MSO is not attached.
    public static let issuerSignatureInvalid = ErrorCode("issuer.signature_invalid")
    /// issuerAuth's `alg` is missing or not supported, or the document signer's key is not one it can verify with.
    public static let issuerAlgorithmUnsupported = ErrorCode("issuer.algorithm_unsupported")
    /// A disclosed `issuing_country` or `issuing_jurisdiction` differs from the document signer's subject.
    public static let issuerContentMismatch = ErrorCode("issuer.content_mismatch")
    /// A COSE header breaks RFC 9052 §3: `crit` unprotected or listing a label the verifier does not process,
    /// `alg` unprotected, or a label in both headers (issuerAuth, deviceSignature or deviceMac; the detail says which).
    public static let coseHeaderInvalid = ErrorCode("cose.header_invalid")
    /// The MobileSecurityObject does not decode, or is inconsistent (e.g. validFrom not before validUntil).
    public static let msoMalformed = ErrorCode("mso.malformed")
    /// The MSO's docType differs from the Document's.
    public static let msoDocTypeMismatch = ErrorCode("mso.doctype_mismatch")
    /// The MSO's validFrom is after the verification time, beyond the allowed clock skew.
    public static let msoNotYetValid = ErrorCode("mso.not_yet_valid")
    /// The MSO's validUntil is before the verification time, beyond the allowed clock skew.
    public static let msoExpired = ErrorCode("mso.expired")
    /// The MSO's digest algorithm is not SHA-256, SHA-384 or SHA-512.
    public static let msoDigestAlgorithmUnsupported = ErrorCode("mso.digest_algorithm_unsupported")
    /// A disclosed element's digest differs from the one the MSO holds for it.
    public static let digestMismatch = ErrorCode("digest.mismatch")
    /// The MSO holds no digest for a disclosed element's digest ID.
    public static let digestMissing = ErrorCode("digest.missing")
    /// A digest ID or an element identifier appears twice in a namespace.
    public static let digestDuplicate = ErrorCode("digest.duplicate")
    /// The document carries no usable device authentication: neither deviceSignature nor deviceMac, or a deviceMac that
    /// cannot be accepted here.
    public static let deviceAuthMissing = ErrorCode("device.auth_missing")
    /// The deviceSignature does not verify over DeviceAuthenticationBytes with the MSO's device key, or its algorithm
    /// is missing or does not fit that key.
    public static let deviceSignatureInvalid = ErrorCode("device.signature_invalid")
    /// The deviceMac does not verify: a wrong tag, an algorithm other than HMAC 256/256, or a MAC key that cannot be
    /// derived.
    public static let deviceMacInvalid = ErrorCode("device.mac_invalid")
    /// A device-signed element is not authorized by the MSO's keyAuthorizations, or shadows an issuer-signed element.
    public static let deviceKeyUnauthorized = ErrorCode("device.key_unauthorized")
    /// The response returned a docType the request did not ask for.
    public static let policyDocTypeNotRequested = ErrorCode("policy.doctype_not_requested")
    /// The response returned an element the request did not ask for.
    public static let policyElementNotRequested = ErrorCode("policy.element_not_requested")
    /// More documents of a docType than the request asks for (a request names each docType once).
    public static let policyDocTypeRepeated = ErrorCode("policy.doctype_repeated")
    /// The document's issuer (the trust anchor its chain ends at, by key identifier) is not on the request's issuer
    /// allow-list (`RequestPolicy.allowedIssuers`).
    public static let policyIssuerNotAllowed = ErrorCode("policy.issuer_not_allowed")
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
        .deviceKeyUnauthorized, .policyDocTypeNotRequested, .policyElementNotRequested, .policyDocTypeRepeated, .policyIssuerNotAllowed,
        .elementTypeInvalid,
        .readerAuthSignatureInvalid, .readerAuthChainUntrusted,
    ]
}

/// A rejection: a stable code plus a message for humans. Messages never carry element values or keys.
public struct VerificationError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The stable rejection code.
    public let code: ErrorCode
    /// What went wrong, for humans.
    public let message: String

    /// Creates a rejection from a code and a message.
    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, as `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
