import CBOR
import CryptoCore
import Foundation

/// Verifies a decoded DeviceResponse against a session transcript (ISO/IEC 18013-5 §9.3). Holds the trust
/// store and the certificate cache, so one instance should serve many verifications.
package final class MdocVerifier: Sendable {
    package let trustStore: TrustStore
    package let options: MdocVerificationOptions
    package let cache: CertificateCache

    package init(trustStore: TrustStore, options: MdocVerificationOptions, cache: CertificateCache = CertificateCache()) {
        self.trustStore = trustStore
        self.options = options
        self.cache = cache
    }

    package struct Outcome: Sendable {
        package var log = CheckLog()
        package var timings: StageTimings
        /// Filled only when every mdoc check passed.
        package var documents: [VerifiedDocument] = []
        /// Documents the response held (verified or not).
        package var documentCount = 0
        /// Documents per docType, this response's (those that parsed) added to `earlierDocTypes`.
        package var docTypeCounts: [String: Int] = [:]
    }

    /// `log` holds the lines recorded before (the envelope's); the outcome's log continues it. Logs are moved from
    /// step to step, never appended to one another: copying every line costs more than a check. `earlierDocTypes`:
    /// the documents per docType of the DeviceResponses of the same answer checked before this one (the previous
    /// outcome's `docTypeCounts`), so that the request's one document per docType holds across them. `review` may add or
    /// change lines once every check ran, before the documents are released.
    package func verify(deviceResponse item: CBORItem, transcript: SessionTranscript, time: Date,
                        readerKey: PrivateKey? = nil, request: RequestPolicy?, firstDocumentIndex: Int = 0,
                        earlierDocTypes: [String: Int] = [:], revocationLookups: RevocationLookups? = nil,
                        log: consuming CheckLog = CheckLog(), traced: Bool = StageTimings.tracerInstalled,
                        review: (inout CheckLog) -> Void = { _ in }) -> Outcome {
        var outcome = Outcome(log: log, timings: StageTimings(traced: traced), docTypeCounts: earlierDocTypes)
        let response: DeviceResponse
        do {
            response = try outcome.timings.measure(.decode) { () throws(VerificationError) in try DeviceResponse(item) }
        } catch {
            outcome.log.fail(.responseStructure, error.code, error.message)
            return outcome
        }
        var documents: [Result<MdocDocument, VerificationError>] = []
        outcome.timings.measure(.decode) {
            documents = response.documents.map { node in Result { () throws(VerificationError) in try MdocDocument(node) } }
        }
        let parsed = documents.compactMap { try? $0.get() }
        let responseChecks = ResponseChecks(response: response, documents: parsed, request: request, earlierDocTypes: earlierDocTypes)
        responseChecks.run(&outcome.log)
        outcome.docTypeCounts = responseChecks.docTypeCounts

        let context = MdocVerificationContext(time: time, transcript: transcript, readerKey: readerKey, options: options,
                                              trustStore: trustStore, cache: cache, request: request, traced: traced,
                                              revocationLookups: revocationLookups)
        var verified: [DocumentVerification] = []
        outcome.documentCount = documents.count
        for (offset, result) in documents.enumerated() {
            let index = firstDocumentIndex + offset
            switch result {
            case .failure(let error):
                outcome.log.fail(.documentStructure, error.code, error.message, document: index)
            case .success(let document):
                var verification = DocumentVerification(index: index, document: document, context: context)
                swap(&verification.log, &outcome.log)
                verification.log.pass(.documentStructure, document.docType, document: index)
                verification.run()
                swap(&verification.log, &outcome.log)
                outcome.timings += verification.timings
                verified.append(consume verification)
            }
        }
        // The format's own reading of the lines (e.g. mock data from a development device), before documents are released.
        review(&outcome.log)
        if !outcome.log.hasFailures {
            outcome.documents = verified.compactMap { $0.verifiedDocument() }
        }
        return outcome
    }
}
