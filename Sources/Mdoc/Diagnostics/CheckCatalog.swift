import MdocModel
import MdocTrust
/// Every check of the ISO/IEC 18013-5 layer, in report order, with its clause and the codes it can raise: the
/// one place where a check id meets its error codes. The format front doors add theirs in `Verifier`
/// (`CheckID.formatChecks`).
extension CheckID {
    static let responseClause = "ISO/IEC 18013-5 §8.3.2.1.2.2 (DeviceResponse)"

    // DeviceResponse level.
    /// The DeviceResponse's top-level map parses: a text `version`, an unsigned `status`, and well-formed `documents`
    /// and `documentErrors` within `ResponseLimits`.
    public static let responseStructure = CheckID("response.structure", clause: responseClause, codes: [.responseMalformed])
    /// The DeviceResponse `version` is a 1.x version.
    public static let responseVersion = CheckID("response.version", clause: responseClause, codes: [.responseMalformed])
    /// The DeviceResponse `status` is 0 (OK) and the response holds at least one document.
    public static let responseStatus = CheckID("response.status", clause: responseClause, codes: [.responseStatus])
    /// No document appears twice, byte for byte, in the response.
    public static let responseDocuments = CheckID("response.documents", clause: responseClause, codes: [.responseMalformed])
    /// `documentErrors` names no docType the response returns; the docTypes it names are reported as a warning.
    public static let responseDocumentErrors = CheckID("response.document_errors", clause: responseClause, codes: [.responseMalformed])
    /// No requested docType is returned more often than the request names it; skipped when no request was given.
    public static let policyDocuments = CheckID(
        "policy.documents", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (DeviceRequest); relying-party policy", codes: [.policyDocTypeRepeated])
    /// A Document parses: `docType`, `issuerSigned` with a COSE_Sign1 `issuerAuth`, `deviceSigned` with its namespaces
    /// and `deviceAuth`, and the optional `errors`.
    public static let documentStructure = CheckID("document.structure", clause: responseClause, codes: [.responseMalformed])

    // Per document, in the order `DocumentCheck.order` runs them.
    /// issuerAuth's headers follow RFC 9052 §3, and its protected `alg` is a signature algorithm the verifier supports.
    public static let issuerAlgorithm = CheckID(
        "issuer.algorithm", clause: "ISO/IEC 18013-5 §9.1.2.4; RFC 9052 §3, §3.1", codes: [.issuerAlgorithmUnsupported, .coseHeaderInvalid])
    /// issuerAuth carries an `x5chain` header (RFC 9360) of distinct DER certificates, document signer first.
    public static let issuerX5chain = CheckID(
        "issuer.x5chain", clause: "ISO/IEC 18013-5 §9.1.2.4; RFC 9360 §2", codes: [.issuerChainUntrusted, .responseMalformed])
    /// The document signer chains to a trust anchor at the verification time, the anchor may vouch for the docType, and
    /// the trust list it came from is current.
    public static let issuerCertificateChain = CheckID(
        "issuer.certificate_chain", clause: "ISO/IEC 18013-5 §9.3.3, Annex B",
        codes: [.issuerChainUntrusted, .issuerCertificateExpired, .vicalStale])
    /// The document signer and its IACA follow the ISO/IEC 18013-5 Annex B certificate profile, as strictly as
    /// `MdocVerificationOptions.profile` asks.
    public static let issuerCertificateProfile = CheckID(
        "issuer.certificate_profile", clause: "ISO/IEC 18013-5 Annex B (Tables B.1 IACA, B.3 document signer)",
        codes: [.issuerCertificateProfile])
    /// issuerAuth's signature over the attached MSO verifies with the document signer's key.
    public static let issuerSignature = CheckID(
        "issuer.signature", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1; RFC 9052 §4.4",
        codes: [.issuerSignatureInvalid, .issuerAlgorithmUnsupported])
    /// No certificate of the document signer's path is revoked by a current CRL its issuer signed.
    public static let revocationCertificate = CheckID(
        "revocation.certificate", clause: "ISO/IEC 18013-5 Annex B (CRL); RFC 5280 §5, §6.3",
        codes: [.issuerCertificateRevoked, .revocationUnknown])
    /// The MobileSecurityObject decodes from issuerAuth's tag-24 payload and has a supported version.
    public static let msoDecode = CheckID("mso.decode", clause: "ISO/IEC 18013-5 §9.1.2.4", codes: [.msoMalformed])
    /// The MSO's digest algorithm is SHA-256, SHA-384 or SHA-512.
    public static let msoDigestAlgorithm = CheckID(
        "mso.digest_algorithm", clause: "ISO/IEC 18013-5 §9.1.2.4", codes: [.msoDigestAlgorithmUnsupported])
    /// The MSO's docType equals the Document's docType.
    public static let msoDocType = CheckID("mso.doctype", clause: "ISO/IEC 18013-5 §9.3.1", codes: [.msoDocTypeMismatch])
    /// The verification time lies within the MSO's validFrom and validUntil (allowing
    /// `MdocVerificationOptions.clockSkew`), and validityInfo is consistent.
    public static let msoValidity = CheckID(
        "mso.validity", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1", codes: [.msoMalformed, .msoNotYetValid, .msoExpired])
    /// The MSO's `signed` time lies within the document signer certificate's validity.
    public static let msoSignedWithinCertificate = CheckID(
        "mso.signed_within_certificate", clause: "ISO/IEC 18013-5 §9.1.2.4, §9.3.1", codes: [.issuerCertificateExpired])
    /// The status list or identifier list that the MSO's `status` names says the document is valid (not revoked or
    /// suspended).
    public static let revocationStatus = CheckID(
        "revocation.status", clause: "ISO/IEC 18013-5 §9.1.2.6 (MSO status); draft-ietf-oauth-status-list",
        codes: [.statusRevoked, .statusSuspended, .statusSignerUntrusted, .statusInvalid, .revocationUnknown])
    /// Every disclosed IssuerSignedItem's digest matches the MSO's `valueDigests`, with no digest ID or element
    /// repeated in a namespace.
    public static let digestValues = CheckID(
        "digest.values", clause: "ISO/IEC 18013-5 §9.1.2.5, §9.3.1", codes: [.digestDuplicate, .digestMissing, .digestMismatch])
    /// mdoc authentication: the `deviceSignature` or `deviceMac` over DeviceAuthenticationBytes verifies with the MSO's
    /// device key.
    public static let deviceAuthentication = CheckID(
        "device.authentication", clause: "ISO/IEC 18013-5 §9.1.3.4, §9.3.2",
        codes: [.msoMalformed, .deviceAuthMissing, .deviceSignatureInvalid, .deviceMacInvalid, .coseHeaderInvalid])
    /// Each device-signed element is authorized by the MSO's `keyAuthorizations` and shadows no issuer-signed element.
    public static let deviceKeyAuthorization = CheckID(
        "device.key_authorization", clause: "ISO/IEC 18013-5 §9.1.2.4 (keyAuthorizations)", codes: [.deviceKeyUnauthorized])
    /// A disclosed `issuing_country` or `issuing_jurisdiction` agrees with the document signer's subject.
    public static let issuerContent = CheckID(
        "issuer.content", clause: "ISO/IEC 18013-5 §7.2.1, Annex B Table B.3", codes: [.issuerContentMismatch])
    /// Each returned element of a known namespace has the data type that namespace defines for it.
    public static let elementTypes = CheckID(
        "element.types", clause: "ISO/IEC 18013-5 §7.2.1; AAMVA mDL guidelines; ISO/IEC 23220-2", codes: [.elementTypeInvalid])
    /// A returned `expiry_date` that has passed at the verification time is reported as a warning; it never fails.
    public static let elementDocumentExpired = CheckID("element.document_expired", clause: "ISO/IEC 18013-5 §7.2.1 (expiry_date)", codes: [])
    /// Reports the Document's `errors` (elements the wallet could not return) as a warning; it never fails.
    public static let documentErrors = CheckID(
        "document.errors", clause: "ISO/IEC 18013-5 §8.3.2.1.2.2 (Document errors, Table 9)", codes: [])
    /// The document's docType is one the request asked for.
    public static let policyDocType = CheckID(
        "policy.doctype", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy", codes: [.policyDocTypeNotRequested])
    /// The anchor the document's chain ends at is on the request's issuer allow-list (by key identifier); passes when
    /// the request names none.
    public static let policyIssuer = CheckID(
        "policy.issuer", clause: "Apple PassKit PKIdentityDocumentDescriptor.issuerIdentifiers; ISO/IEC 18013-5 DocRequestInfo "
            + "issuerIdentifiers; OpenID4VP 1.0 §6.1.1 (aki); relying-party policy",
        codes: [.policyIssuerNotAllowed])
    /// Every returned element was requested; an `age_over_NN` question may be answered from `age_in_years`.
    public static let policyElements = CheckID(
        "policy.elements", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy",
        codes: [.policyElementNotRequested])
    /// An `age_over_NN` answered from `age_in_years` is released as a boolean and the exact age withheld; fails when
    /// `age_in_years` is not an unsigned integer.
    public static let policyAgeFallback = CheckID(
        "policy.age_fallback", clause: "ISO/IEC 18013-5 §7.2.5 (age_over_NN); relying-party policy", codes: [.elementTypeInvalid])

    /// Every check of this layer, in report order.
    public static let mdocChecks: [CheckID] = [
        .responseStructure, .responseVersion, .responseStatus, .responseDocuments, .responseDocumentErrors, .policyDocuments,
        .documentStructure,
        .issuerAlgorithm, .issuerX5chain, .issuerCertificateChain, .issuerCertificateProfile, .issuerSignature, .revocationCertificate,
        .msoDecode, .msoDigestAlgorithm, .msoDocType, .msoValidity, .msoSignedWithinCertificate, .revocationStatus, .digestValues,
        .deviceAuthentication, .deviceKeyAuthorization, .issuerContent, .elementTypes, .elementDocumentExpired, .documentErrors, .policyDocType, .policyIssuer,
        .policyElements, .policyAgeFallback,
    ]
}
