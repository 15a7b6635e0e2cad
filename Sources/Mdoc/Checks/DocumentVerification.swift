import CBOR
import CryptoCore
import Foundation

/// Inputs shared by every document of one response.
package struct MdocVerificationContext: Sendable {
    package let time: Date
    package let transcript: SessionTranscript
    package let readerKey: PrivateKey?
    package let options: MdocVerificationOptions
    package let trustStore: TrustStore
    package let cache: CertificateCache
    package let request: RequestPolicy?

    package init(time: Date, transcript: SessionTranscript, readerKey: PrivateKey?, options: MdocVerificationOptions,
                 trustStore: TrustStore, cache: CertificateCache, request: RequestPolicy?) {
        self.time = time
        self.transcript = transcript
        self.readerKey = readerKey
        self.options = options
        self.trustStore = trustStore
        self.cache = cache
        self.request = request
    }
}

/// The checks for one document, run in the order of ISO/IEC 18013-5 §9.3. Each step lives in its own
/// file as an extension and records pass/fail/warn/skip; later steps run even after a failure when their
/// inputs exist, so the report shows every problem at once. Element values are kept internal.
package struct DocumentVerification {
    package let index: Int
    package let document: MdocDocument
    package let context: MdocVerificationContext
    package var log = CheckLog()
    package var timings = StageTimings()

    // Facts established by earlier steps.
    var algorithm: COSEAlgorithm?
    var documentSigner: Certificate?
    var intermediates: [Certificate] = []
    var trustedChain: [Certificate]?
    var mso: MobileSecurityObject?
    var deviceKey: PublicKey?
    var ageDisclosure: AgeDisclosure?

    package init(index: Int, document: MdocDocument, context: MdocVerificationContext) {
        self.index = index
        self.document = document
        self.context = context
    }

    /// Runs every check of this document.
    package mutating func run() {
        let clock = ContinuousClock()
        var mark = clock.now
        func lap(_ stage: WritableKeyPath<StageTimings, Duration>, _ timings: inout StageTimings) {
            let now = clock.now
            timings[keyPath: stage] += now - mark
            mark = now
        }
        checkIssuerAlgorithm()
        loadCertificateChain()
        lap(\.issuer, &timings)
        checkCertificateChain()
        lap(\.chain, &timings)
        checkCertificateProfile()
        checkIssuerSignature()
        decodeMobileSecurityObject()
        checkDocType()
        checkValidity()
        lap(\.issuer, &timings)
        checkValueDigests()
        lap(\.digests, &timings)
        checkDeviceAuthentication()
        checkKeyAuthorizations()
        lap(\.device, &timings)
        checkIssuerContent()
        checkDocumentErrors()
        checkRequestPolicy()
    }

    // MARK: - Recording helpers

    mutating func pass(_ id: String, _ detail: String, clause: String) {
        log.pass(id, detail, clause: clause, document: index)
    }

    mutating func warn(_ id: String, _ detail: String, clause: String) {
        log.warn(id, detail, clause: clause, document: index)
    }

    mutating func skip(_ id: String, _ detail: String, clause: String) {
        log.skip(id, detail, clause: clause, document: index)
    }

    mutating func fail(_ id: String, _ code: ErrorCode, _ detail: String, clause: String) {
        log.fail(id, code, detail, clause: clause, document: index)
    }

    /// Issuer-signed items by namespace, for the digest, content and policy steps.
    var issuerItems: [(nameSpace: String, item: IssuerSignedItem)] {
        document.issuerNameSpaces.flatMap { ns in ns.items.map { (ns.name, $0) } }
    }
}
