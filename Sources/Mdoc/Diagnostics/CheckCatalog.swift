/// Every check of the ISO/IEC 18013-5 layer, in report order, with its clause and the codes it can raise: the
/// one place where a check id meets its error codes. The format front doors add theirs in `Verifier`
/// (`CheckID.formatChecks`).
extension CheckID {
    static let responseClause = "ISO/IEC 18013-5 §8.3.2.1.2.2 (DeviceResponse)"

    // DeviceResponse level.
    public static let responseStructure = CheckID("response.structure", clause: responseClause, codes: [.responseMalformed])
    public static let responseVersion = CheckID("response.version", clause: responseClause, codes: [.responseMalformed])
    public static let responseStatus = CheckID("response.status", clause: responseClause, codes: [.responseStatus])
    public static let responseDocuments = CheckID("response.documents", clause: responseClause, codes: [.responseMalformed])
    public static let responseDocumentErrors = CheckID("response.document_errors", clause: responseClause, codes: [.responseMalformed])
    public static let policyDocuments = CheckID(
        "policy.documents", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (DeviceRequest); relying-party policy", codes: [.policyDocTypeRepeated])
    public static let documentStructure = CheckID("document.structure", clause: responseClause, codes: [.responseMalformed])

    // Per document, in the order `DocumentCheck.order` runs them.
    public static let issuerAlgorithm = CheckID(
        "issuer.algorithm", clause: "ISO/IEC 18013-5 §9.1.2.4; RFC 9052 §3, §3.1", codes: [.issuerAlgorithmUnsupported, .coseHeaderInvalid])
    public static let issuerX5chain = CheckID(
        "issuer.x5chain", clause: "ISO/IEC 18013-5 §9.1.2.4; RFC 9360 §2", codes: [.issuerChainUntrusted, .responseMalformed])
    public static let issuerCertificateChain = CheckID(
        "issuer.certificate_chain", clause: "ISO/IEC 18013-5 §9.3.3, Annex B",
        codes: [.issuerChainUntrusted, .issuerCertificateExpired, .vicalStale])
    public static let issuerCertificateProfile = CheckID(
        "issuer.certificate_profile", clause: "ISO/IEC 18013-5 Annex B (Tables B.1 IACA, B.3 document signer)",
        codes: [.issuerCertificateProfile])
    public static let issuerSignature = CheckID(
        "issuer.signature", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1; RFC 9052 §4.4",
        codes: [.issuerSignatureInvalid, .issuerAlgorithmUnsupported])
    public static let revocationCertificate = CheckID(
        "revocation.certificate", clause: "ISO/IEC 18013-5 Annex B (CRL); RFC 5280 §5, §6.3",
        codes: [.issuerCertificateRevoked, .revocationUnknown])
    public static let msoDecode = CheckID("mso.decode", clause: "ISO/IEC 18013-5 §9.1.2.4", codes: [.msoMalformed])
    public static let msoDigestAlgorithm = CheckID(
        "mso.digest_algorithm", clause: "ISO/IEC 18013-5 §9.1.2.4", codes: [.msoDigestAlgorithmUnsupported])
    public static let msoDocType = CheckID("mso.doctype", clause: "ISO/IEC 18013-5 §9.3.1", codes: [.msoDocTypeMismatch])
    public static let msoValidity = CheckID(
        "mso.validity", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1", codes: [.msoMalformed, .msoNotYetValid, .msoExpired])
    public static let msoSignedWithinCertificate = CheckID(
        "mso.signed_within_certificate", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1", codes: [.issuerCertificateExpired])
    public static let revocationStatus = CheckID(
        "revocation.status", clause: "ISO/IEC 18013-5 §9.1.2.6 (MSO status); draft-ietf-oauth-status-list",
        codes: [.statusRevoked, .statusSuspended, .statusInvalid, .revocationUnknown])
    public static let digestValues = CheckID(
        "digest.values", clause: "ISO/IEC 18013-5 §9.1.2.5, §9.3.1", codes: [.digestDuplicate, .digestMissing, .digestMismatch])
    public static let deviceAuthentication = CheckID(
        "device.authentication", clause: "ISO/IEC 18013-5 §9.1.3.4, §9.3.2",
        codes: [.msoMalformed, .deviceAuthMissing, .deviceSignatureInvalid, .deviceMacInvalid, .coseHeaderInvalid])
    public static let deviceKeyAuthorization = CheckID(
        "device.key_authorization", clause: "ISO/IEC 18013-5 §9.1.2.4 (keyAuthorizations)", codes: [.deviceKeyUnauthorized])
    public static let issuerContent = CheckID(
        "issuer.content", clause: "ISO/IEC 18013-5 §7.2.1, Annex B Table B.3", codes: [.issuerContentMismatch])
    public static let elementTypes = CheckID(
        "element.types", clause: "ISO/IEC 18013-5 §7.2.1; AAMVA mDL guidelines; ISO/IEC 23220-2", codes: [.elementTypeInvalid])
    public static let documentErrors = CheckID(
        "document.errors", clause: "ISO/IEC 18013-5 §8.3.2.1.2.2 (Document errors, Table 9)", codes: [])
    public static let policyDocType = CheckID(
        "policy.doctype", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy", codes: [.policyDocTypeNotRequested])
    public static let policyElements = CheckID(
        "policy.elements", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy",
        codes: [.policyElementNotRequested])
    public static let policyAgeFallback = CheckID(
        "policy.age_fallback", clause: "ISO/IEC 18013-5 §7.2.5 (age_over_NN); relying-party policy", codes: [.elementTypeInvalid])

    /// Every check of this layer, in report order.
    public static let mdocChecks: [CheckID] = [
        .responseStructure, .responseVersion, .responseStatus, .responseDocuments, .responseDocumentErrors, .policyDocuments,
        .documentStructure,
        .issuerAlgorithm, .issuerX5chain, .issuerCertificateChain, .issuerCertificateProfile, .issuerSignature, .revocationCertificate,
        .msoDecode, .msoDigestAlgorithm, .msoDocType, .msoValidity, .msoSignedWithinCertificate, .revocationStatus, .digestValues,
        .deviceAuthentication, .deviceKeyAuthorization, .issuerContent, .elementTypes, .documentErrors, .policyDocType, .policyElements,
        .policyAgeFallback,
    ]
}
