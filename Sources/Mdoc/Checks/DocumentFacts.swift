import CryptoCore

/// What one check establishes for later checks of the same document.
package enum DocumentFact: Sendable, CaseIterable, CustomStringConvertible {
    case issuerAlgorithm, documentSigner, trustedChain, issuerSignature, mso, digestAlgorithm, requestPolicy, documentRequest, ageDisclosure

    package var description: String {
        switch self {
        case .issuerAlgorithm: "a supported issuerAuth algorithm"
        case .documentSigner: "the document signer certificate"
        case .trustedChain: "a chain to a trusted IACA"
        case .issuerSignature: "a valid issuer signature"
        case .mso: "the MSO"
        case .digestAlgorithm: "a supported MSO digest algorithm"
        case .requestPolicy: "the relying party's request"
        case .documentRequest: "a request for this docType"
        case .ageDisclosure: "the returned elements compared with the request"
        }
    }
}

/// The facts established so far; each is set by exactly one check (see `DocumentCheck.produces`).
package struct DocumentFacts: Sendable {
    var issuerAlgorithm: COSEAlgorithm?
    var documentSigner: Certificate?
    var intermediates: [Certificate] = []
    var trustedChain: [Certificate]?
    var issuerSignatureValid = false
    var mso: MobileSecurityObject?
    var documentRequest: RequestPolicy.DocumentRequest?
    var ageDisclosure: AgeDisclosure?
    /// Given by the caller rather than by a check.
    let requestPolicy: RequestPolicy?

    func has(_ fact: DocumentFact) -> Bool {
        switch fact {
        case .issuerAlgorithm: issuerAlgorithm != nil
        case .documentSigner: documentSigner != nil
        case .trustedChain: trustedChain != nil
        case .issuerSignature: issuerSignatureValid
        case .mso: mso != nil
        case .digestAlgorithm: mso?.digestAlgorithm != nil
        case .requestPolicy: requestPolicy != nil
        case .documentRequest: documentRequest != nil
        case .ageDisclosure: ageDisclosure != nil
        }
    }
}

/// One check of a document as a unit: the report line it writes, the facts it needs (a missing one becomes a
/// `skip` that names it, written by the runner), the facts it establishes, and the stage its time counts to. A class:
/// the runner walks the list for every document, and a copy of a struct of arrays and a closure costs several
/// reference counts where a class reference costs one.
package final class DocumentCheck: Sendable {
    package let id: CheckID
    package let needs: [DocumentFact]
    package let produces: [DocumentFact]
    package let stage: StageTimings.Stage?
    let body: @Sendable (inout DocumentVerification) -> Void

    init(_ id: CheckID, needs: [DocumentFact] = [], produces: [DocumentFact] = [], stage: StageTimings.Stage?,
         _ body: @escaping @Sendable (inout DocumentVerification) -> Void) {
        self.id = id
        self.needs = needs
        self.produces = produces
        self.stage = stage
        self.body = body
    }
}
