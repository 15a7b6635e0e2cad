import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// The response formats the kit produces (the verifier's report formats).
public typealias ResponseFormat = VerificationReport.Format

/// A deliberate defect in a simulated response, named for the command line (`--fault NAME`) and mapped to the
/// error code the verifier must return. Faults compose: a simulation takes any list of compatible faults.
///
/// A fault aims at exactly one check. Where a defect necessarily trips two checks they report the same code
/// (a Document Signer not yet valid also fails `mso.signed_within_certificate`, both `issuer.certificate_expired`).
public enum Fault: String, CaseIterable, Sendable, Hashable, Codable {
    // Issuer data (any format).
    /// A disclosed element's value is changed after the MSO digests were computed (`digest.mismatch`).
    case tamperedElementValue = "tampered-element-value"
    /// The MSO has no digest for a disclosed element's digestID (`digest.missing`).
    case missingDigestID = "missing-digest-id"
    /// Two disclosed elements of one namespace carry the same digestID (`digest.duplicate`).
    case duplicateDigestID = "duplicate-digest-id"
    /// One disclosed IssuerSignedItem is sent twice, byte for byte: its digest matches both times (`digest.duplicate`).
    case duplicateItem = "duplicate-item"
    /// One elementIdentifier is sent twice in a namespace, with another value under another digestID, both digests in
    /// the MSO (`digest.duplicate`: which value is the holder's?).
    case duplicateElement = "duplicate-element"
    /// One bit of the issuerAuth signature is flipped (`issuer.signature_invalid`).
    case issuerSignatureCorrupted = "issuer-signature-corrupted"
    /// issuerAuth's signature is all zero bytes while the device signs properly: mock data from a development device
    /// (Apple's Wallet developer profile). `issuer.mock_data` for the formats Apple's wallet produces (apple-app,
    /// annex-c), `issuer.signature_invalid` for the others.
    case mockData = "mock-data"
    /// The Document Signer is issued by another root with the IACA's name but not its key (`issuer.chain_untrusted`).
    case untrustedRoot = "untrusted-root"
    /// The Document Signer is issued by a CA the IACA issued, sent in x5chain, where Annex B has the IACA issue it
    /// (`issuer.chain_untrusted`).
    case intermediateCA = "intermediate-ca"
    /// The Document Signer's validity ended before the verification time (`issuer.certificate_expired`).
    case documentSignerExpired = "document-signer-expired"
    /// The Document Signer's validity starts after the verification time (`issuer.certificate_expired`).
    case documentSignerNotYetValid = "document-signer-not-yet-valid"
    /// The Document Signer's EKU is 1.0.18013.5.1.6 (reader authentication), not 1.0.18013.5.1.2
    /// (`issuer.certificate_profile`).
    case documentSignerWrongEKU = "document-signer-wrong-eku"
    /// The Document Signer's key usage is nonRepudiation only (`issuer.certificate_profile`).
    case documentSignerKeyUsageWithoutDigitalSignature = "document-signer-key-usage-without-digital-signature"
    /// The Document Signer has no key usage extension.
    ///
    /// The default certificate profile only warns (the response verifies); the strict profile fails with
    /// `issuer.certificate_profile`.
    case documentSignerNoKeyUsage = "document-signer-no-key-usage"
    /// The Document Signer has basicConstraints CA=true (`issuer.certificate_profile`).
    case documentSignerIsCA = "document-signer-is-ca"
    /// The MSO's validUntil is before the verification time (`mso.expired`).
    case msoExpired = "mso-expired"
    /// The MSO's validFrom is after the verification time (`mso.not_yet_valid`).
    case msoNotYetValid = "mso-not-yet-valid"
    /// The MSO's validUntil is ten minutes before the verification time: past any clock skew a verifier allows, not
    /// days (`mso.expired`).
    case msoExpiredMinutes = "mso-expired-minutes"
    /// validityInfo.signed precedes the Document Signer's validity, which covers the verification time
    /// (`issuer.certificate_expired`: the MSO was not signed while the certificate was valid).
    case msoSignedBeforeCertificate = "mso-signed-before-certificate"
    /// The MSO's version is "2.0" (`mso.malformed`: this verifier reads version 1.x).
    case msoVersionUnsupported = "mso-version-unsupported"
    /// The MSO names another docType than the Document, whose docType the device signs (`mso.doctype_mismatch`).
    case msoDocTypeMismatch = "mso-doctype-mismatch"
    /// The MSO's digestAlgorithm says "SHA-1" over SHA-256 digests (`mso.digest_algorithm_unsupported`): the label
    /// alone must be refused; a verifier that ignores it and computes SHA-256 finds every digest right.
    case unsupportedDigestAlgorithm = "unsupported-digest-algorithm"
    /// The MSO's digestAlgorithm is "SHA-1" and its digests are SHA-1 (`mso.digest_algorithm_unsupported`): a verifier
    /// that accepts SHA-1 finds every digest right.
    case sha1Digests = "sha1-digests"
    /// The protected alg of issuerAuth is -37, PS256 (`issuer.algorithm_unsupported`).
    case unsupportedCOSEAlgorithm = "unsupported-cose-algorithm"
    /// The protected crit of issuerAuth lists a private-use header label the verifier does not process
    /// (`cose.header_invalid`).
    case issuerCritUnknown = "issuer-crit-unknown"
    /// The unprotected header of issuerAuth carries crit (`cose.header_invalid`).
    case issuerCritUnprotected = "issuer-crit-unprotected"
    /// The unprotected header of issuerAuth repeats a garbage alg (`cose.header_invalid`).
    case issuerAlgUnprotected = "issuer-alg-unprotected"
    // Device authentication (any format).
    /// The device signs DeviceAuthentication over another session transcript (`device.signature_invalid`).
    case deviceSignatureOtherTranscript = "device-signature-other-transcript"
    /// The MSO binds another device key than the one that signs (`device.signature_invalid`).
    case deviceKeyMismatch = "device-key-mismatch"
    /// A device-signed element is sent without keyAuthorizations for it in the MSO (`device.key_unauthorized`).
    case deviceSignedElementUnauthorized = "device-signed-element-unauthorized"
    /// A device-signed element the MSO's keyAuthorizations allow, which the request does not ask for
    /// (`policy.element_not_requested`). When the options hold no request, the kit adds one asking for the disclosed
    /// issuer-signed elements.
    case deviceSignedElementNotRequested = "device-signed-element-not-requested"
    /// The device sends deviceMac instead of deviceSignature, and the verifier gets no reader key
    /// (`device.auth_missing`).
    case deviceMacWithoutReaderKey = "device-mac-without-reader-key"
    /// The protected crit of the deviceSignature lists a private-use header label (`cose.header_invalid`).
    case deviceCritUnknown = "device-crit-unknown"
    // The response as a whole (any format).
    /// The same Document appears twice in `documents` (`response.malformed`).
    case duplicateDocument = "duplicate-document"
    /// A second Document of the same docType (another device key) beside the first, while the request asks for one
    /// (`policy.doctype_repeated`).
    ///
    /// When the options hold no request, the kit adds one asking for a single Document with the disclosed elements.
    case duplicateDocType = "duplicate-doctype"
    /// The DeviceResponse's documentErrors says the returned docType could not be returned (`response.malformed`).
    case documentErrorsConflict = "document-errors-conflict"
    /// The DeviceResponse's status is 10 (general error) beside documents that verify (`response.status`).
    case responseStatusNonzero = "response-status-nonzero"
    /// The DeviceResponse's version is "2.0" (`response.malformed`: this verifier reads version 1.x).
    case responseVersionUnsupported = "response-version-unsupported"
    // Revocation (any format; the kit issues the CRL and the status list, see `SimulatedRevocation`).
    /// The IACA's CRL lists the Document Signer as revoked (`issuer.certificate_revoked`).
    case documentSignerRevoked = "document-signer-revoked"
    /// The status list marks the document revoked, status 1 (`status.revoked`).
    case statusRevoked = "status-revoked"
    /// The status list marks the document suspended, status 2 (`status.suspended`).
    case statusSuspended = "status-suspended"
    /// The status list token's exp has passed, so the status is unknown (`revocation.unknown`).
    case statusListExpired = "status-list-expired"
    /// The status list token is signed by a key outside the trust store (`status.signer_untrusted`).
    case statusListUntrusted = "status-list-untrusted"
    /// The status list token's sub is another URI than the MSO names, so the status is unknown (`revocation.unknown`).
    case statusListSubMismatch = "status-list-sub-mismatch"
    /// The MSO's status index is outside the status list (`status.invalid`).
    case statusIndexOutOfRange = "status-index-out-of-range"
    /// The status list token is signed by another issuer's Document Signer, whose IACA the verifier trusts too
    /// (`SimulatedRevocation.otherIssuerAnchors`): another issuer's list cannot decide this document's status
    /// (`status.signer_untrusted`).
    case statusListOtherIssuer = "status-list-other-issuer"
    /// The status list token's exp is a float 60 days before the verification time, so the status is unknown
    /// (`revocation.unknown`).
    case statusListExpiredFloatExp = "status-list-expired-float-exp"
    /// The status list token's iat is after the verification time, so the status is unknown (`revocation.unknown`).
    case statusListIssuedInFuture = "status-list-issued-in-future"
    /// The MSO names a status list and an identifier list; the status list says valid, the identifier list revoked
    /// (`status.revoked`).
    case identifierListRevoked = "identifier-list-revoked"
    /// The status list token's protected typ is "application/cwt", not "application/statuslist+cwt", so the status is
    /// unknown (`revocation.unknown`).
    case statusListWrongType = "status-list-wrong-type"
    /// The IACA's only CRL is past its nextUpdate, so the Document Signer's revocation is unknown
    /// (`revocation.unknown`).
    case crlStale = "crl-stale"
    /// The only CRL in the IACA's name is signed by another key (it lists nothing), so the Document Signer's
    /// revocation is unknown (`revocation.unknown`).
    case crlWrongSigner = "crl-wrong-signer"
    // Transport (encrypted formats).
    /// The response is sealed to another recipient key.
    ///
    /// Expected code: `envelope.recipient_mismatch` for Apple, `hpke.open_failed` for Annex C,
    /// `jwe.decryption_failed` for OpenID4VP.
    case encryptedToOtherKey = "encrypted-to-other-key"
    /// The Apple envelope's params.infoHash is SHA-256 of another session transcript (`envelope.transcript_mismatch`).
    case wrongInfoHash = "wrong-info-hash"
    /// One bit of the ciphertext is flipped.
    ///
    /// Expected code: `hpke.open_failed` for Apple and Annex C, `jwe.decryption_failed` for OpenID4VP.
    case corruptedCiphertext = "corrupted-ciphertext"
    /// The Apple envelope's algorithm is "APPLE-HPKE-v2" (`envelope.unsupported`).
    case unsupportedEnvelopeAlgorithm = "unsupported-envelope-algorithm"
    /// The Apple envelope's params.mode is 1, PSK (`envelope.unsupported`).
    case unsupportedEnvelopeMode = "unsupported-envelope-mode"
    /// The Apple envelope bytes are cut in half (`input.malformed`).
    case truncatedEnvelope = "truncated-envelope"
    // Encodings a verifier must accept (the response still verifies).
    /// Map heads `b9 00 NN` and small integers `18 NN` in IssuerSignedItems, the MSO, DeviceNameSpaces and the
    /// DeviceResponse; the response must still verify.
    case nonShortestCBOR = "non-shortest-cbor"
    /// Unknown keys in IssuerSignedItems, the MSO, the Document, the DeviceResponse and the Apple envelope; the
    /// response must still verify.
    case unknownMapKeys = "unknown-map-keys"

    /// The fault's `--fault` name (its raw value).
    public var name: String { rawValue }

    /// Creates the fault whose `--fault` name is `name`; nil for an unknown name.
    public init?(name: String) {
        self.init(rawValue: name)
    }

    /// A one-line description of the defect the fault builds into the response.
    public var summary: String { Self.summaries[self] ?? name }

    /// Every fault's one-line description (`FaultTableTests` checks that every fault has one).
    package static let summaries: [Fault: String] = [
        .tamperedElementValue: "a disclosed element's value is changed after the MSO digests were computed",
        .missingDigestID: "the MSO has no digest for a disclosed element's digestID",
        .duplicateDigestID: "two disclosed elements of one namespace carry the same digestID",
        .duplicateItem: "one disclosed IssuerSignedItem is sent twice, byte for byte",
        .duplicateElement: "one elementIdentifier twice in a namespace, two values under two digestIDs, both digests right",
        .msoExpiredMinutes: "the MSO's validUntil is ten minutes before the verification time",
        .msoSignedBeforeCertificate: "validityInfo.signed precedes the Document Signer's validity (valid now)",
        .msoVersionUnsupported: "the MSO's version is \"2.0\"",
        .responseStatusNonzero: "the DeviceResponse's status is 10 beside documents that verify",
        .responseVersionUnsupported: "the DeviceResponse's version is \"2.0\"",
        .issuerSignatureCorrupted: "one bit of the issuerAuth signature is flipped",
        .mockData: "issuerAuth's signature is all zero bytes, the device signs: mock data from a development device (Apple's developer profile)",
        .untrustedRoot: "the Document Signer is issued by another root with the IACA's name but not its key",
        .intermediateCA: "the Document Signer is issued by a CA the IACA issued, sent in x5chain (Annex B has the IACA issue it)",
        .documentSignerExpired: "the Document Signer's validity ended before the verification time",
        .documentSignerNotYetValid: "the Document Signer's validity starts after the verification time",
        .documentSignerWrongEKU: "the Document Signer's EKU is 1.0.18013.5.1.6 (reader auth), not 1.0.18013.5.1.2",
        .documentSignerKeyUsageWithoutDigitalSignature: "the Document Signer's key usage is nonRepudiation only",
        .documentSignerNoKeyUsage: "the Document Signer has no key usage extension (the default profile warns, strict fails)",
        .documentSignerIsCA: "the Document Signer has basicConstraints CA=true",
        .msoExpired: "the MSO's validUntil is before the verification time",
        .msoNotYetValid: "the MSO's validFrom is after the verification time",
        .msoDocTypeMismatch: "the MSO names another docType than the Document (the device signs the Document's)",
        .unsupportedDigestAlgorithm: "the MSO's digestAlgorithm says \"SHA-1\" over SHA-256 digests",
        .sha1Digests: "the MSO's digestAlgorithm is \"SHA-1\" and its digests are SHA-1",
        .issuerCritUnknown: "issuerAuth's protected crit lists a private-use header label the verifier does not process",
        .issuerCritUnprotected: "issuerAuth carries crit in its unprotected header",
        .issuerAlgUnprotected: "issuerAuth repeats a garbage alg in its unprotected header",
        .deviceCritUnknown: "the deviceSignature's protected crit lists a private-use header label",
        .duplicateDocument: "the same Document appears twice in `documents`",
        .duplicateDocType: "a second mDL (another device key) beside the first; the request (added if none is given) asks for one",
        .documentErrorsConflict: "documentErrors says the returned docType could not be returned",
        .unsupportedCOSEAlgorithm: "issuerAuth is PS256 (-37), a valid RSASSA-PSS signature by an RSA-2048 Document Signer the IACA issued",
        .deviceSignatureOtherTranscript: "the device signs DeviceAuthentication over another session transcript",
        .deviceKeyMismatch: "the MSO binds another device key than the one that signs",
        .deviceSignedElementUnauthorized: "a device-signed element without keyAuthorizations for it in the MSO",
        .deviceSignedElementNotRequested: "a device-signed element the MSO authorizes but the request does not ask for",
        .deviceMacWithoutReaderKey: "deviceMac instead of deviceSignature, and the verifier gets no reader key",
        .encryptedToOtherKey: "the response is sealed to another recipient key",
        .wrongInfoHash: "params.infoHash is SHA-256 of another session transcript",
        .corruptedCiphertext: "one bit of the HPKE ciphertext is flipped",
        .unsupportedEnvelopeAlgorithm: "the envelope's algorithm is \"APPLE-HPKE-v2\"",
        .unsupportedEnvelopeMode: "the envelope's params.mode is 1 (PSK)",
        .truncatedEnvelope: "the envelope bytes are cut in half",
        .documentSignerRevoked: "the IACA's CRL lists the Document Signer as revoked",
        .statusRevoked: "the status list marks the document revoked (status 1)",
        .statusSuspended: "the status list marks the document suspended (status 2)",
        .statusListExpired: "the status list token's exp has passed (status unknown)",
        .statusListUntrusted: "the status list token is signed by a key outside the trust store",
        .statusListSubMismatch: "the status list token's sub is another URI than the MSO names (status unknown)",
        .statusIndexOutOfRange: "the MSO's status index is outside the status list",
        .statusListOtherIssuer: "the status list token is signed by another trusted issuer's Document Signer",
        .statusListExpiredFloatExp: "the status list token's exp is a float 60 days in the past (status unknown)",
        .statusListIssuedInFuture: "the status list token's iat is after the verification time (status unknown)",
        .identifierListRevoked: "the MSO names a status list (valid) and an identifier list (revoked)",
        .statusListWrongType: "the status list token's typ is application/cwt (status unknown)",
        .crlStale: "the IACA's only CRL is past its nextUpdate (revocation unknown)",
        .crlWrongSigner: "the only CRL in the IACA's name is signed by another key (revocation unknown)",
        .nonShortestCBOR: "map heads b9 00 NN and small integers 18 NN in IssuerSignedItems, MSO, DeviceResponse (must verify)",
        .unknownMapKeys: "unknown keys in IssuerSignedItems, MSO, Document, DeviceResponse and envelope (must verify)",
    ]

    /// The formats the fault applies to.
    /// The formats the fault applies to: every format the kit simulates for an mdoc fault; for a transport fault,
    /// those whose envelope has it.
    public var formats: Set<ResponseFormat> {
        Set(KitFormat.all.filter { transportStage == nil || $0.transportFaults.contains(self) }.map(\.format))
    }

    /// The code the verifier must return for this fault alone; nil when the response must still verify.
    /// Annex C transport codes are those of ISO/IEC 18013-7 Annex C decryption (HPKE open fails).
    public func expectedCode(format: ResponseFormat, profile: CertificateProfile = .default) -> ErrorCode? {
        expectedCode(format: format, profile: profile, mockDataApplies: MockDataRule.formats.contains(format))
    }

    /// `expectedCode(format:profile:)` for a format whose descriptor says whether mock data applies (a registered one).
    package func expectedCode(format: ResponseFormat, profile: CertificateProfile, mockDataApplies: Bool) -> ErrorCode? {
        switch self {
        case .tamperedElementValue: return .digestMismatch
        case .missingDigestID: return .digestMissing
        case .duplicateDigestID, .duplicateItem, .duplicateElement: return .digestDuplicate
        case .issuerSignatureCorrupted: return .issuerSignatureInvalid
        case .mockData: return mockDataApplies ? .issuerMockData : .issuerSignatureInvalid
        case .untrustedRoot, .intermediateCA: return .issuerChainUntrusted
        case .documentSignerExpired, .documentSignerNotYetValid: return .issuerCertificateExpired
        case .documentSignerWrongEKU, .documentSignerKeyUsageWithoutDigitalSignature, .documentSignerIsCA: return .issuerCertificateProfile
        case .documentSignerNoKeyUsage: return profile == .strict ? .issuerCertificateProfile : nil
        case .msoExpired, .msoExpiredMinutes: return .msoExpired
        case .msoNotYetValid: return .msoNotYetValid
        case .msoSignedBeforeCertificate: return .issuerCertificateExpired
        case .msoVersionUnsupported: return .msoMalformed
        case .responseStatusNonzero: return .responseStatus
        case .responseVersionUnsupported: return .responseMalformed
        case .msoDocTypeMismatch: return .msoDocTypeMismatch
        case .unsupportedDigestAlgorithm, .sha1Digests: return .msoDigestAlgorithmUnsupported
        case .unsupportedCOSEAlgorithm: return .issuerAlgorithmUnsupported
        case .issuerCritUnknown, .issuerCritUnprotected, .issuerAlgUnprotected, .deviceCritUnknown: return .coseHeaderInvalid
        case .deviceSignatureOtherTranscript, .deviceKeyMismatch: return .deviceSignatureInvalid
        case .deviceSignedElementUnauthorized: return .deviceKeyUnauthorized
        case .deviceSignedElementNotRequested: return .policyElementNotRequested
        case .duplicateDocument, .documentErrorsConflict: return .responseMalformed
        case .duplicateDocType: return .policyDocTypeRepeated
        // Apple and Annex C refuse deviceMac outright; a bare DeviceResponse cannot check it without the reader key.
        case .deviceMacWithoutReaderKey: return .deviceAuthMissing
        case .encryptedToOtherKey, .corruptedCiphertext: return KitFormat.of(format)?.transportCodes[self] ?? .hpkeOpenFailed
        case .wrongInfoHash: return .envelopeTranscriptMismatch
        case .unsupportedEnvelopeAlgorithm, .unsupportedEnvelopeMode: return .envelopeUnsupported
        case .truncatedEnvelope: return .inputMalformed
        case .documentSignerRevoked: return .issuerCertificateRevoked
        case .statusRevoked: return .statusRevoked
        case .statusSuspended: return .statusSuspended
        case .statusListExpired, .statusListSubMismatch, .statusListExpiredFloatExp, .statusListIssuedInFuture, .statusListWrongType,
             .crlStale, .crlWrongSigner: return .revocationUnknown
        case .statusListUntrusted, .statusListOtherIssuer: return .statusSignerUntrusted
        case .statusIndexOutOfRange: return .statusInvalid
        case .identifierListRevoked: return .statusRevoked
        case .nonShortestCBOR, .unknownMapKeys: return nil
        }
    }

    /// Faults that shape the status list the MSO names.
    var needsStatusList: Bool {
        [.statusRevoked, .statusSuspended, .statusListExpired, .statusListUntrusted, .statusListSubMismatch, .statusIndexOutOfRange,
         .statusListOtherIssuer, .statusListExpiredFloatExp, .statusListIssuedInFuture, .identifierListRevoked, .statusListWrongType,
         // The CRL faults carry a valid status list too: the kit then verifies under the hard policy, where unknown rejects.
         .crlStale, .crlWrongSigner].contains(self)
    }

    /// Position in the transport pipeline (the verifier stops at the first transport failure); nil for the rest.
    package var transportStage: Int? {
        switch self {
        case .truncatedEnvelope: return 0
        case .unsupportedEnvelopeAlgorithm, .unsupportedEnvelopeMode: return 1
        case .encryptedToOtherKey: return 2
        case .wrongInfoHash: return 3
        case .corruptedCiphertext: return 4
        default: return nil
        }
    }

    /// Pairs that cannot be built into one response.
    static let conflicts: [(Fault, Fault)] = [
        (.documentSignerExpired, .documentSignerNotYetValid),
        (.msoExpired, .msoNotYetValid), (.msoExpired, .msoExpiredMinutes), (.msoNotYetValid, .msoExpiredMinutes),
        (.msoSignedBeforeCertificate, .msoExpired), (.msoSignedBeforeCertificate, .msoNotYetValid),
        (.msoSignedBeforeCertificate, .documentSignerExpired), (.msoSignedBeforeCertificate, .documentSignerNotYetValid),
        (.documentSignerNoKeyUsage, .documentSignerKeyUsageWithoutDigitalSignature),
        (.mockData, .issuerSignatureCorrupted), (.unsupportedDigestAlgorithm, .sha1Digests),
    ]

    /// Faults after which no device signature verifies (so a zeroed issuer signature is not recognised as mock data).
    static let breakingDeviceSignature: Set<Fault> = [.deviceSignatureOtherTranscript, .deviceKeyMismatch, .deviceCritUnknown,
                                                      .deviceMacWithoutReaderKey]

    /// Throws for a fault that does not apply to `format` or a conflicting pair. An mdoc fault applies to every format
    /// (one a test registered too); a transport fault to those whose envelope has it.
    public static func validate(_ faults: [Fault], format: ResponseFormat) throws {
        for fault in faults where fault.transportStage != nil && !fault.formats.contains(format) {
            throw SimulationError.faultNotApplicable(fault, "it does not apply to the \(format.rawValue) format")
        }
        for (a, b) in conflicts where faults.contains(a) && faults.contains(b) {
            throw SimulationError.conflictingFaults(a, b)
        }
    }
}
