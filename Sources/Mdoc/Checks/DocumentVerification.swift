import CBOR
import CryptoCore
import Foundation
import MdocModel
import MdocTrust
import Tracing

/// Inputs shared by every document of one response.
package struct MdocVerificationContext: Sendable {
    package let time: Date
    package let transcript: SessionTranscript
    package let readerKey: PrivateKey?
    package let options: MdocVerificationOptions
    package let trustStore: TrustStore
    package let cache: CertificateCache
    /// Reaches the checks only as the `.requestPolicy` fact, so only those that declare it read it.
    fileprivate let request: RequestPolicy?
    /// The verification's timings at zero: each document's timings start from them, so they record spans when the
    /// verification's do.
    package let documentTimings: StageTimings
    /// Where the revocation checks note the lists their source would have to fetch (nil: nobody fetches).
    package let revocationLookups: RevocationLookups?

    package init(time: Date, transcript: SessionTranscript, readerKey: PrivateKey?, options: MdocVerificationOptions,
                 trustStore: TrustStore, cache: CertificateCache, request: RequestPolicy?, documentTimings: StageTimings = StageTimings(),
                 revocationLookups: RevocationLookups? = nil) {
        self.time = time
        self.transcript = transcript
        self.readerKey = readerKey
        self.options = options
        self.trustStore = trustStore
        self.cache = cache
        self.request = request
        self.documentTimings = documentTimings
        self.revocationLookups = revocationLookups
    }

    /// The same inputs without the revocation record, for a verification kept in that record to be finished later:
    /// it must not hold the record that holds it.
    var withoutRevocationLookups: MdocVerificationContext {
        MdocVerificationContext(time: time, transcript: transcript, readerKey: readerKey, options: options, trustStore: trustStore,
                                cache: cache, request: request, documentTimings: documentTimings)
    }
}

/// The checks of one document, run as the declared list `DocumentCheck.order` (ISO/IEC 18013-5 §9.3). A check
/// whose needed facts are missing is skipped with one line naming the fact and the check that should have
/// established it; later checks run after a failure when their facts exist, so the report shows every problem at
/// once. Element values stay internal.
package struct DocumentVerification: Sendable {
    package let index: Int
    package let document: MdocDocument
    package private(set) var context: MdocVerificationContext
    package var log = CheckLog()
    package var timings: StageTimings
    /// What the checks established, for the assembly; set when `run()` ends. A check gets only the facts it declares
    /// (`DocumentCheck`), never these.
    package private(set) var facts: DocumentFacts
    /// This document's failed issuer-side checks (those before `revocation.status`), in order, other than
    /// `revocation.certificate` failing only for want of an answer (the CRL and the status list are then looked up in
    /// one round): the status check follows the MSO's reference only when there is none.
    private(set) var issuerSideFailures: [CheckID] = []
    /// Every returned element, issuer-signed first, with its value and provenance (listed once per document: the
    /// type, policy and assembly steps all read it).
    let returnedElements: [ReturnedElement]

    /// One returned element. A struct, not a tuple: reading one field of a tuple in an array copied all of its fields
    /// (a reference count each way for each).
    struct ReturnedElement: Sendable {
        let nameSpace: String
        let element: String
        let value: CBORItem
        let deviceSigned: Bool
    }

    /// A verification whose lines follow those of `log` (by default, a log of its own).
    package init(index: Int, document: MdocDocument, context: MdocVerificationContext, continuing log: CheckLog = CheckLog()) {
        self.index = index
        self.document = document
        self.context = context
        self.log = log
        self.timings = context.documentTimings
        self.facts = DocumentFacts(requestPolicy: context.request)
        var returned: [ReturnedElement] = []
        returned.reserveCapacity(document.issuerNameSpaces.reduce(0) { $0 + $1.items.count }
                                 + document.deviceNameSpaces.reduce(0) { $0 + $1.elements.count })
        for nameSpace in document.issuerNameSpaces {
            let items = nameSpace.items
            for index in items.indices {
                returned.append(ReturnedElement(nameSpace: nameSpace.name, element: items[index].elementIdentifier,
                                                value: items[index].elementValue, deviceSigned: false))
            }
        }
        for nameSpace in document.deviceNameSpaces {
            for element in nameSpace.elements {
                returned.append(ReturnedElement(nameSpace: nameSpace.name, element: element.identifier, value: element.value, deviceSigned: true))
            }
        }
        self.returnedElements = returned
    }

    /// Runs every check of `DocumentCheck.order`. Consecutive checks of one stage share one span and one clock
    /// reading, and the tracer is looked up once per document (not at all when none is bootstrapped): a span per check
    /// cost more than the checks.
    package mutating func run() {
        let clock = ContinuousClock()
        let tracer = timings.tracer
        // The stage being timed, when it started, and its span (docs/performance.md: three variables).
        var openStage: StageTimings.Stage?
        var openedAt = clock.now
        var span: (any Span)?
        func close(_ now: ContinuousClock.Instant, into timings: inout StageTimings) {
            guard let stage = openStage else { return }
            timings[stage] += now - openedAt
            span?.end()
            (openStage, span) = (nil, nil)
        }
        var facts = self.facts
        for check in DocumentCheck.order {
            if let missing = check.needs.first(where: { !facts.has($0) }) {
                skip(check.id, DocumentCheck.skipDetail(missing))
                continue
            }
            if openStage != check.stage {
                let now = clock.now
                close(now, into: &timings)
                if let stage = check.stage {
                    (openStage, openedAt) = (stage, now)
                    span = tracer?.startAnySpan(stage.spanName, context: ServiceContext.current ?? .topLevel)
                }
            }
            check.body(&self, &facts)
        }
        close(clock.now, into: &timings)
        self.facts = facts
    }

    /// Runs the revocation checks again on what the source holds now (after the lists they noted were fetched), on the
    /// facts the first run established, and puts their lines in place of that run's in `log`; their time counts to
    /// `timings`. No other check runs again. The status check decides afresh whether to follow the MSO's reference,
    /// from the new `revocation.certificate` outcome.
    package mutating func revisitRevocation(in log: inout CheckLog, timings: inout StageTimings) {
        let clock = ContinuousClock()
        let started = clock.now
        var facts = self.facts
        issuerSideFailures.removeAll { $0 == .revocationCertificate }
        for check in DocumentCheck.revocation {
            self.log = CheckLog()
            check.run(&self, facts: &facts)
            log.replaceLines(of: check.id, document: index, with: self.log.checks)
        }
        self.log = CheckLog()
        timings[.chain] += clock.now - started
    }

    /// This verification without its revocation record, to be kept in that record until it is finished
    /// (`revisitRevocation(in:timings:)`): a record that held a verification holding the record would never be freed,
    /// nor the element values in it.
    package var detachedFromRevocationLookups: DocumentVerification {
        var detached = self
        detached.context = context.withoutRevocationLookups
        return detached
    }

    /// The log: the lines it was created with, then this document's. Left empty here, so the caller holds the only
    /// copy and appends to it in place.
    package mutating func handOverLog() -> CheckLog {
        defer { log = CheckLog() }
        return log
    }

    // MARK: - Recording

    mutating func pass(_ id: CheckID, _ detail: String, clause: String? = nil) {
        log.pass(id, detail, clause: clause, document: index)
    }

    mutating func warn(_ id: CheckID, _ detail: String, clause: String? = nil) {
        log.warn(id, detail, clause: clause, document: index)
    }

    mutating func skip(_ id: CheckID, _ detail: String, clause: String? = nil) {
        log.skip(id, detail, clause: clause, document: index)
    }

    mutating func fail(_ id: CheckID, _ code: ErrorCode, _ detail: String, clause: String? = nil) {
        log.fail(id, code, detail, clause: clause, document: index)
        if Self.issuerSideChecks.contains(id.rawValue), !(id == .revocationCertificate && code == .revocationUnknown),
           !issuerSideFailures.contains(id) {
            // In check order, also when `revisitRevocation` records revocation.certificate after later checks.
            let position = DocumentCheck.position(of: id)
            issuerSideFailures.insert(id, at: issuerSideFailures.firstIndex { DocumentCheck.position(of: $0) > position }
                                      ?? issuerSideFailures.endIndex)
        }
    }

    /// Issuer-signed items by namespace, for the digest, content and policy steps.
    var issuerItems: [(nameSpace: String, item: IssuerSignedItem)] {
        document.issuerNameSpaces.flatMap { ns in ns.items.map { (ns.name, $0) } }
    }
}

extension DocumentCheck {
    /// The order of the checks of one document: ISO/IEC 18013-5 §9.3 (issuer data authentication, then mdoc
    /// authentication), then the consistency and relying-party policy checks.
    package static let order: [DocumentCheck] = [
        .issuerAlgorithm, .x5chain, .certificateChain, .certificateProfile, .issuerSignature, .certificateRevocation,
        .msoDecode, .msoDigestAlgorithm, .msoDocType, .msoValidity, .msoSignedWithinCertificate, .msoStatus,
        .valueDigests, .deviceAuthentication, .keyAuthorizations, .issuerContent, .elementTypes, .documentExpiry, .documentErrors,
        .policyDocType, .policyIssuer, .policyElements, .policyAgeFallback,
    ]

    /// The checks that consult the revocation source, in run order: those a verification runs again once the lists
    /// its source lacked are fetched (`DocumentVerification.revisitRevocation(in:timings:)`).
    package static let revocation: [DocumentCheck] = order.filter { $0 === certificateRevocation || $0 === msoStatus }

    /// Where the check `id` runs in `order`.
    static func position(of id: CheckID) -> Int {
        order.firstIndex { $0.id == id } ?? order.count
    }

    /// Why a check did not run: the missing fact and who should have provided it.
    static func skipDetail(_ fact: DocumentFact) -> String {
        skipDetails[fact] ?? "needs \(fact)"
    }

    /// The skip line of every fact, written once: a response without a request policy skips three checks each time.
    private static let skipDetails: [DocumentFact: String] = Dictionary(uniqueKeysWithValues: DocumentFact.allCases.map { fact in
        if fact == .requestPolicy { return (fact, "needs \(fact), which the caller did not give") }
        let producer = order.first { $0.produces.contains(fact) }?.id.rawValue ?? "no check"
        return (fact, "needs \(fact), which \(producer) did not establish")
    })
}
