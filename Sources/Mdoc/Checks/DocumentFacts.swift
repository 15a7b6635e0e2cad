import CryptoCore
import MdocModel

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

/// The certificates of issuerAuth's x5chain: the document signer and what was sent after it.
package struct X5Chain: Sendable {
    package let signer: Certificate
    /// Sent after the signer; never part of a trusted path (only named when the signer's issuer is one of them).
    package let sent: [Certificate]

    package init(signer: Certificate, sent: [Certificate] = []) {
        self.signer = signer
        self.sent = sent
    }
}

/// That issuerAuth's signature verified with the document signer's key (a check that needs it reads nothing else).
package struct IssuerSignatureVerified: Sendable {
    package init() {}
}

/// The facts established so far; each is set by exactly one check (see `DocumentCheck.produces`). The values are
/// `fileprivate`: a check receives the ones it declared as parameters (`DocumentCheck`'s constructors below), and
/// nothing else can read or write them.
package struct DocumentFacts: Sendable {
    fileprivate var issuerAlgorithm: COSEAlgorithm?
    fileprivate var documentSigner: X5Chain?
    fileprivate var trustedChain: [Certificate]?
    fileprivate var issuerSignature: IssuerSignatureVerified?
    fileprivate var mso: MobileSecurityObject?
    fileprivate var digestAlgorithm: DigestAlgorithm?
    fileprivate var documentRequest: RequestPolicy.DocumentRequest?
    fileprivate var ageDisclosure: AgeDisclosure?
    /// Given by the caller rather than by a check.
    fileprivate var requestPolicy: RequestPolicy?

    package init(requestPolicy: RequestPolicy?) {
        self.requestPolicy = requestPolicy
    }

    /// Whether `fact` is established (its value stays out of reach).
    package func has(_ fact: DocumentFact) -> Bool {
        switch fact {
        case .issuerAlgorithm: issuerAlgorithm != nil
        case .documentSigner: documentSigner != nil
        case .trustedChain: trustedChain != nil
        case .issuerSignature: issuerSignature != nil
        case .mso: mso != nil
        case .digestAlgorithm: digestAlgorithm != nil
        case .requestPolicy: requestPolicy != nil
        case .documentRequest: documentRequest != nil
        case .ageDisclosure: ageDisclosure != nil
        }
    }

    /// Establishes `fact` (tests give a check its facts this way; the runner keeps its own copy out of the checks' reach).
    package mutating func establish<Value>(_ fact: Fact<Value>, _ value: Value) {
        fact.set(&self, value)
    }
}

/// A fact with the type a check receives it as. `needs: .mso` hands the check a `MobileSecurityObject`, not an
/// optional, and `produces: .mso` makes the check return one.
package struct Fact<Value>: Sendable {
    package let fact: DocumentFact
    fileprivate let get: @Sendable (DocumentFacts) -> Value?
    fileprivate let set: @Sendable (inout DocumentFacts, Value) -> Void
}

extension Fact where Value == COSEAlgorithm {
    package static var issuerAlgorithm: Self { Self(fact: .issuerAlgorithm, get: { $0.issuerAlgorithm }, set: { $0.issuerAlgorithm = $1 }) }
}

extension Fact where Value == X5Chain {
    package static var documentSigner: Self { Self(fact: .documentSigner, get: { $0.documentSigner }, set: { $0.documentSigner = $1 }) }
}

extension Fact where Value == [Certificate] {
    /// Document signer first, trust anchor last.
    package static var trustedChain: Self { Self(fact: .trustedChain, get: { $0.trustedChain }, set: { $0.trustedChain = $1 }) }
}

extension Fact where Value == IssuerSignatureVerified {
    package static var issuerSignature: Self { Self(fact: .issuerSignature, get: { $0.issuerSignature }, set: { $0.issuerSignature = $1 }) }
}

extension Fact where Value == MobileSecurityObject {
    package static var mso: Self { Self(fact: .mso, get: { $0.mso }, set: { $0.mso = $1 }) }
}

extension Fact where Value == DigestAlgorithm {
    package static var digestAlgorithm: Self { Self(fact: .digestAlgorithm, get: { $0.digestAlgorithm }, set: { $0.digestAlgorithm = $1 }) }
}

extension Fact where Value == RequestPolicy {
    package static var requestPolicy: Self { Self(fact: .requestPolicy, get: { $0.requestPolicy }, set: { $0.requestPolicy = $1 }) }
}

extension Fact where Value == RequestPolicy.DocumentRequest {
    package static var documentRequest: Self { Self(fact: .documentRequest, get: { $0.documentRequest }, set: { $0.documentRequest = $1 }) }
}

extension Fact where Value == AgeDisclosure {
    package static var ageDisclosure: Self { Self(fact: .ageDisclosure, get: { $0.ageDisclosure }, set: { $0.ageDisclosure = $1 }) }
}

/// One check of a document as a unit: the report line it writes, the facts it needs (a missing one becomes a
/// `skip` that names it, written by the runner), the facts it establishes, and the stage its time counts to.
///
/// A check is made only with the typed constructors below: its body receives exactly the facts it declared in
/// `needs` (and `uses`, when established) as values, and returns the one it declared in `produces`; the facts
/// themselves stay out of its reach, so a check cannot read or set what it did not declare.
///
/// A class: the runner walks the list for every document, and a copy of a struct of arrays and a closure costs
/// several reference counts where a class reference costs one.
package final class DocumentCheck: Sendable {
    package let id: CheckID
    package let needs: [DocumentFact]
    /// Read when established, never skipped for (a check that reports more when it has them).
    package let uses: [DocumentFact]
    package let produces: [DocumentFact]
    package let stage: StageTimings.Stage?
    let body: @Sendable (inout DocumentVerification, inout DocumentFacts) -> Void

    private init(_ id: CheckID, needs: [DocumentFact], uses: [DocumentFact] = [], produces: [DocumentFact], stage: StageTimings.Stage?,
                 _ body: @escaping @Sendable (inout DocumentVerification, inout DocumentFacts) -> Void) {
        self.id = id
        self.needs = needs
        self.uses = uses
        self.produces = produces
        self.stage = stage
        self.body = body
    }

    /// Runs this check alone on `verification` with `facts`, as the runner does: a missing fact is one `skip` line
    /// naming it and its producer.
    package func run(_ verification: inout DocumentVerification, facts: inout DocumentFacts) {
        if let missing = needs.first(where: { !facts.has($0) }) {
            verification.skip(id, DocumentCheck.skipDetail(missing))
            return
        }
        body(&verification, &facts)
    }

    // MARK: - Checks that establish nothing

    convenience init(_ id: CheckID, stage: StageTimings.Stage?, _ body: @escaping @Sendable (inout DocumentVerification) -> Void) {
        self.init(id, needs: [], produces: [], stage: stage) { run, _ in body(&run) }
    }

    convenience init<A>(_ id: CheckID, needs a: Fact<A>, stage: StageTimings.Stage?,
                        _ body: @escaping @Sendable (inout DocumentVerification, A) -> Void) {
        self.init(id, needs: [a.fact], produces: [], stage: stage) { run, facts in
            guard let a = a.get(facts) else { return }
            body(&run, a)
        }
    }

    convenience init<A, B>(_ id: CheckID, needs a: Fact<A>, _ b: Fact<B>, stage: StageTimings.Stage?,
                           _ body: @escaping @Sendable (inout DocumentVerification, A, B) -> Void) {
        self.init(id, needs: [a.fact, b.fact], produces: [], stage: stage) { run, facts in
            guard let a = a.get(facts), let b = b.get(facts) else { return }
            body(&run, a, b)
        }
    }

    convenience init<A, B, C>(_ id: CheckID, needs a: Fact<A>, _ b: Fact<B>, _ c: Fact<C>, stage: StageTimings.Stage?,
                              _ body: @escaping @Sendable (inout DocumentVerification, A, B, C) -> Void) {
        self.init(id, needs: [a.fact, b.fact, c.fact], produces: [], stage: stage) { run, facts in
            guard let a = a.get(facts), let b = b.get(facts), let c = c.get(facts) else { return }
            body(&run, a, b, c)
        }
    }

    /// `needs` one fact and `uses` another when an earlier check established it (nil otherwise).
    convenience init<A, B>(_ id: CheckID, needs a: Fact<A>, uses b: Fact<B>, stage: StageTimings.Stage?,
                           _ body: @escaping @Sendable (inout DocumentVerification, A, B?) -> Void) {
        self.init(id, needs: [a.fact], uses: [b.fact], produces: [], stage: stage) { run, facts in
            guard let a = a.get(facts) else { return }
            body(&run, a, b.get(facts))
        }
    }

    // MARK: - Checks that establish one fact: the body returns it (nil: not established)

    convenience init<P>(_ id: CheckID, produces p: Fact<P>, stage: StageTimings.Stage?,
                        _ body: @escaping @Sendable (inout DocumentVerification) -> P?) {
        self.init(id, needs: [], produces: [p.fact], stage: stage) { run, facts in
            if let value = body(&run) { p.set(&facts, value) }
        }
    }

    convenience init<A, P>(_ id: CheckID, needs a: Fact<A>, produces p: Fact<P>, stage: StageTimings.Stage?,
                           _ body: @escaping @Sendable (inout DocumentVerification, A) -> P?) {
        self.init(id, needs: [a.fact], produces: [p.fact], stage: stage) { run, facts in
            guard let a = a.get(facts) else { return }
            if let value = body(&run, a) { p.set(&facts, value) }
        }
    }

    convenience init<A, B, P>(_ id: CheckID, needs a: Fact<A>, _ b: Fact<B>, produces p: Fact<P>, stage: StageTimings.Stage?,
                              _ body: @escaping @Sendable (inout DocumentVerification, A, B) -> P?) {
        self.init(id, needs: [a.fact, b.fact], produces: [p.fact], stage: stage) { run, facts in
            guard let a = a.get(facts), let b = b.get(facts) else { return }
            if let value = body(&run, a, b) { p.set(&facts, value) }
        }
    }
}

extension DocumentVerification {
    /// The caller-facing document, from the facts the run established (see `VerifiedDocumentAssembly`).
    package func verifiedDocument() -> VerifiedDocument? {
        guard let mso = facts.mso, let chain = facts.documentSigner else { return nil }
        return verifiedDocument(mso: mso, signer: chain.signer, trustedChain: facts.trustedChain,
                                request: facts.documentRequest, ages: facts.ageDisclosure)
    }
}
