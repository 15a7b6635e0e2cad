import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// The cases of the corpus, per format: positive controls, every kit fault that applies to the format, and the attack
/// classes the kit can build.
enum ConformanceCatalog {
    static func cases(for kit: KitFormat, in registry: KitRegistry) -> [ConformanceCase] {
        let descriptor = registry.formats.descriptor(kit.format)
        var list = CaseList(kit: kit, hasRequestFlow: descriptor?.hasRequestFlow == true, mockDataApplies: descriptor?.mockDataApplies == true)
        addPositiveControls(to: &list)
        addFaults(to: &list)
        addAttacks(to: &list)
        if kit.corpus.carriesEncodingCases { addEncodingCases(to: &list) }
        return list.cases
    }

    /// The cases of one format as they are added, each with its id from the format, kind and name.
    struct CaseList {
        /// The format's kit side.
        let kit: KitFormat
        /// Whether the format has a request flow (a replay is then an attack).
        let hasRequestFlow: Bool
        /// Whether the format's descriptor says mock data applies (`issuer.mock_data`).
        let mockDataApplies: Bool
        var cases: [ConformanceCase] = []

        var format: ResponseFormat { kit.format }
        var shape: CorpusShape { kit.corpus }

        mutating func add(_ kind: ConformanceCase.Kind, _ name: String, clause: String, summary: String, expected: ExpectedOutcome,
                          requires: Set<ConformanceCase.Requirement> = [], fault: Fault? = nil, recipe: Recipe) {
            cases.append(ConformanceCase(id: "\(format.rawValue)/\(kind.rawValue)/\(name)", format: format, kind: kind, clause: clause,
                                         summary: summary, expected: expected, requires: requires, fault: fault, recipe: recipe))
        }
    }

    /// Positive controls.
    static func addPositiveControls(to list: inout CaseList) {
        let shape: CorpusShape? = list.shape
        list.add(.positive, "mdl", clause: "ISO/IEC 18013-5 §9.3 (mdoc verification)",
                 summary: "a correct mDL response with six elements: it must verify", expected: .verified, recipe: Recipe())
        if shape?.requestDocTypeCode == nil {  // a request that binds the docType asks for the mDL
            list.add(.positive, "photoid", clause: "ISO/IEC 23220-2; ISO/IEC 18013-5 §9.3",
                     summary: "a correct ISO/IEC 23220 photo ID response: it must verify", expected: .verified,
                     recipe: Recipe(docType: DocType.photoID,
                                    elements: ["family_name_unicode", "given_name_unicode", "birth_date", "age_over_18"]
                                        .map { ElementID(NameSpace.iso23220, $0) }))
        }
        list.add(.positive, "request-answered", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest)",
                 summary: "the wallet returns exactly the three elements the request asks for: it must verify", expected: .verified,
                 requires: [.requestPolicy], recipe: Recipe(elements: askedElements, request: askedRequest))
        list.add(.positive, "status-valid", clause: "ISO/IEC 18013-5 §9.1.2.6 (MSO status); draft-ietf-oauth-status-list",
                 summary: "the MSO names a status list that says valid, and the CRL lists nothing: it must verify", expected: .verified,
                 requires: [.revocation], recipe: Recipe(statusList: true))
    }

    /// Every kit fault of the format.
    static func addFaults(to list: inout CaseList) {
        let format = list.format
        for fault in Fault.allCases where fault.transportStage == nil || list.kit.transportFaults.contains(fault) {
            var recipe = Recipe(faults: [fault])
            var requires: Set<ConformanceCase.Requirement> = []
            if fault.needsStatusList || fault == .documentSignerRevoked {
                recipe.statusList = fault.needsStatusList
                requires.insert(.revocation)
            }
            // The kit adds a request asking for one mDL (with the disclosed issuer-signed elements).
            if fault == .duplicateDocType || fault == .deviceSignedElementNotRequested { requires.insert(.requestPolicy) }
            // Table B.3 makes key usage mandatory: the verdict is the standard's, for a verifier that enforces it.
            let profile: CertificateProfile = fault == .documentSignerNoKeyUsage ? .strict : .default
            if profile == .strict { requires.insert(.certificateProfile) }
            let mode: SimulationOptions.DeviceAuthMode = fault == .deviceMacWithoutReaderKey ? .mac : .signature
            list.add(.fault, fault.name, clause: clause(fault), summary: fault.summary,
                     expected: ExpectedOutcome.forFaults([fault], format: format, profile: profile, deviceAuthentication: mode,
                                                         refusesDeviceMac: list.kit.refusesDeviceMac, mockDataApplies: list.mockDataApplies),
                     requires: requires, fault: fault, recipe: recipe)
        }
    }

    /// Attack classes.
    static func addAttacks(to list: inout CaseList) {
        let shape: CorpusShape? = list.shape
        let mdl = NameSpace.mDL
        list.add(.attack, "age-over-disclosure", clause: "ISO/IEC 18013-5 §7.2.5 (age_over_NN), §8.3.2.1.2.1; data minimisation",
                 summary: "asked only age_over_21, the wallet also returns age_in_years and birth_date (the exact age)",
                 expected: .rejected(.policyElementNotRequested), requires: [.requestPolicy],
                 recipe: Recipe(elements: ["age_over_21", "age_in_years", "birth_date"].map { ElementID(mdl, $0) },
                                request: RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [mdl: ["age_over_21": false]])])))
        list.add(.attack, "element-not-requested", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); data minimisation",
                 summary: "the wallet returns document_number beside the three requested elements",
                 expected: .rejected(.policyElementNotRequested), requires: [.requestPolicy],
                 recipe: Recipe(elements: askedElements + [ElementID(mdl, "document_number")], request: askedRequest))
        list.add(.attack, "doctype-not-requested", clause: "ISO/IEC 18013-5 §8.3.2.1.2.1 (DeviceRequest)",
                 summary: "the request asks for an mDL; the wallet returns a photo ID instead",
                 expected: .rejected(shape?.requestDocTypeCode ?? .policyDocTypeNotRequested),
                 requires: shape?.requestDocTypeCode == nil ? [.requestPolicy] : [],
                 recipe: Recipe(docType: DocType.photoID, elements: [ElementID(NameSpace.iso23220, "family_name_unicode")],
                                request: askedRequest))
        list.add(.attack, "element-type-bool-as-text", clause: "ISO/IEC 18013-5 §7.2.1, §7.2.5 (age_over_NN is a bool)",
                 summary: "the issuer signed age_over_21 as the text \"true\", not a boolean",
                 expected: .rejected(.elementTypeInvalid),
                 recipe: Recipe(contentOverrides: [ElementID(mdl, "age_over_21"): .text("true")]))
        list.add(.attack, "element-type-text-as-number", clause: "ISO/IEC 18013-5 §7.2.1 (document_number is a tstr)",
                 summary: "the issuer signed document_number as the number 1234567, not text",
                 expected: .rejected(.elementTypeInvalid),
                 recipe: Recipe(contentOverrides: [ElementID(mdl, "document_number"): .unsigned(1_234_567)]))
        list.add(.attack, "transcript-other-format", clause: "ISO/IEC 18013-5 §9.1.3.4 (DeviceAuthentication), §9.1.5.1 (SessionTranscript)",
                 summary: "the device signs over another format's session transcript (\(shape?.otherTranscriptName ?? "another format's")) for this request",
                 expected: .rejected(.deviceSignatureInvalid), recipe: Recipe(transcript: .otherFormat))
        shape?.extraAttacks(&list)
        if list.hasRequestFlow {
            list.add(.attack, "replay", clause: "ISO/IEC 18013-7 §6 (one response per request); relying-party policy",
                     summary: "a correct answer posted a second time to the same request: the second must be refused",
                     expected: .rejected(ErrorCode("nonce.replayed")), requires: [.state], recipe: Recipe(replay: true))
        }
    }

    /// The three elements the request cases ask for.
    static let askedElements = ["family_name", "given_name", "age_over_21"].map { ElementID(NameSpace.mDL, $0) }
    static let askedRequest = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [
        NameSpace.mDL: ["family_name": true, "given_name": false, "age_over_21": false],
    ])])

    /// The clause each fault exercises.
    static func clause(_ fault: Fault) -> String {
        switch fault {
        case .tamperedElementValue, .missingDigestID, .duplicateDigestID, .duplicateItem, .duplicateElement: return "ISO/IEC 18013-5 §9.1.2.5, §9.3.1 (value digests)"
        case .issuerSignatureCorrupted: return "ISO/IEC 18013-5 §9.1.2.4, §9.3.1; RFC 9052 §4.4"
        case .mockData: return "Apple Business Connect, Verify with Wallet on the Web FAQ (developer profile: no issuer signature); ISO/IEC 18013-5 §9.3.1"
        case .untrustedRoot, .intermediateCA: return "ISO/IEC 18013-5 §9.3.3, Annex B (IACA issues the Document Signer)"
        case .documentSignerExpired, .documentSignerNotYetValid: return "ISO/IEC 18013-5 §9.3.3; RFC 5280 §6.1.3 (validity)"
        case .documentSignerWrongEKU, .documentSignerKeyUsageWithoutDigitalSignature, .documentSignerNoKeyUsage, .documentSignerIsCA:
            return "ISO/IEC 18013-5 Annex B, Table B.3 (Document Signer certificate)"
        case .msoExpired, .msoNotYetValid, .msoExpiredMinutes: return "ISO/IEC 18013-5 §9.1.2.4, §9.3.1 (validityInfo)"
        case .msoSignedBeforeCertificate: return "ISO/IEC 18013-5 §9.1.2.4 (validityInfo.signed within the Document Signer's validity), §9.3.1"
        case .msoVersionUnsupported: return "ISO/IEC 18013-5 §9.1.2.4 (MSO version 1.0)"
        case .responseStatusNonzero: return "ISO/IEC 18013-5 §8.3.2.1.2.3 (DeviceResponse status codes)"
        case .responseVersionUnsupported: return "ISO/IEC 18013-5 §8.3.2.1.2.2 (DeviceResponse version 1.0)"
        case .msoDocTypeMismatch: return "ISO/IEC 18013-5 §9.3.1 (MSO docType)"
        case .unsupportedDigestAlgorithm, .sha1Digests: return "ISO/IEC 18013-5 §9.1.2.4 (digestAlgorithm)"
        case .unsupportedCOSEAlgorithm: return "ISO/IEC 18013-5 §9.1.2.4 (issuerAuth algorithms: ES256, ES384, ES512, EdDSA; no RSA)"
        case .issuerCritUnknown, .issuerCritUnprotected, .issuerAlgUnprotected: return "RFC 9052 §3, §3.1 (crit, protected alg)"
        case .deviceSignatureOtherTranscript, .deviceKeyMismatch: return "ISO/IEC 18013-5 §9.1.3.4, §9.3.2 (device authentication)"
        case .deviceSignedElementUnauthorized: return "ISO/IEC 18013-5 §9.1.2.4 (keyAuthorizations)"
        case .deviceSignedElementNotRequested: return "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest), §8.3.2.1.2.2 (DeviceSigned); relying-party policy"
        case .deviceMacWithoutReaderKey: return "ISO/IEC 18013-5 §9.1.3.5 (deviceMac needs the reader key)"
        case .deviceCritUnknown: return "RFC 9052 §3.1 (crit) in the deviceSignature"
        case .duplicateDocument, .documentErrorsConflict: return "ISO/IEC 18013-5 §8.3.2.1.2.2 (DeviceResponse)"
        case .duplicateDocType: return "ISO/IEC 18013-5 §8.3.2.1.2.1 (DeviceRequest); relying-party policy"
        case .documentSignerRevoked, .crlStale, .crlWrongSigner: return "ISO/IEC 18013-5 Annex B (CRL); RFC 5280 §6.3"
        case .statusRevoked, .statusSuspended, .statusListExpired, .statusListUntrusted, .statusListSubMismatch,
             .statusIndexOutOfRange, .statusListOtherIssuer, .statusListExpiredFloatExp, .statusListIssuedInFuture, .identifierListRevoked,
             .statusListWrongType:
            return "ISO/IEC 18013-5 §9.1.2.6 (MSO status); draft-ietf-oauth-status-list"
        case .encryptedToOtherKey, .corruptedCiphertext:
            return "the format's encryption: Apple HPKE envelope, ISO/IEC 18013-7 Annex C HPKE, or OpenID4VP JWE (RFC 7516)"
        case .wrongInfoHash, .unsupportedEnvelopeAlgorithm, .unsupportedEnvelopeMode, .truncatedEnvelope:
            return "Apple Verify with Wallet: the APPLE-HPKE-v1 envelope"
        case .nonShortestCBOR: return "RFC 8949 §4.2 (preferred encoding is not required of a decoder); hash the bytes received"
        case .unknownMapKeys: return "ISO/IEC 18013-5 §8.3.2.1.2 (extensibility: unknown keys are ignored)"
        }
    }
}
