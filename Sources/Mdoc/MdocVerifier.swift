import CBOR
import CryptoCore
import Foundation
import MdocModel
import MdocTrust

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

    /// One DeviceResponse verified on its own: its lines, its stage times and its documents.
    package struct Outcome: Sendable {
        package var log = CheckLog()
        package var timings = StageTimings()
        /// Filled only when every mdoc check passed.
        package var documents: [VerifiedDocument] = []
        /// Documents the response held (verified or not).
        package var documentCount = 0
        /// Documents per docType, this response's (those that parsed) added to `earlierDocTypes`.
        package var docTypeCounts: [String: Int] = [:]
    }

    /// What verifying one DeviceResponse returns besides the lines and times it adds to the caller's.
    package struct Documents: Sendable {
        /// Filled only when the caller's log holds no failure once every check ran.
        package var verified: [VerifiedDocument] = []
        /// Documents the response held (verified or not).
        package var count = 0
        /// Documents per docType, this response's (those that parsed) added to `earlierDocTypes`.
        package var docTypeCounts: [String: Int] = [:]
        /// Each parsed document's verification, kept when a revocation record was given: what finishes the
        /// verification once the lists it noted are fetched.
        package var checked: [DocumentVerification] = []
    }

    /// Verifies `item` with a log and timings of its own (a caller that recorded nothing before it).
    package func verify(deviceResponse item: CBORItem, transcript: SessionTranscript, time: Date,
                        readerKey: PrivateKey? = nil, request: RequestPolicy?, revocationLookups: RevocationLookups? = nil) -> Outcome {
        var outcome = Outcome()
        let documents = verify(deviceResponse: item, transcript: transcript, time: time, readerKey: readerKey, request: request,
                               revocationLookups: revocationLookups, log: &outcome.log, timings: &outcome.timings)
        (outcome.documents, outcome.documentCount, outcome.docTypeCounts) = (documents.verified, documents.count, documents.docTypeCounts)
        return outcome
    }

    /// Verifies `item`, appending every check's line to `log` (after the lines the caller recorded before, such as the
    /// envelope's) and the stages' times to `timings`. `earlierDocTypes`: the documents per docType of the
    /// DeviceResponses of the same answer checked before this one (the previous result's `docTypeCounts`), so that
    /// the request's one document per docType holds across them. `review` may add or change lines once every check
    /// ran, before the documents are released; it is given the documents as parsed (index 0 is
    /// `firstDocumentIndex`).
    package func verify(deviceResponse item: CBORItem, transcript: SessionTranscript, time: Date,
                        readerKey: PrivateKey? = nil, request: RequestPolicy?, firstDocumentIndex: Int = 0,
                        earlierDocTypes: [String: Int] = [:], revocationLookups: RevocationLookups? = nil,
                        log: inout CheckLog, timings: inout StageTimings,
                        review: (inout CheckLog, [Result<MdocDocument, VerificationError>]) -> Void = { _, _ in }) -> Documents {
        var result = Documents(docTypeCounts: earlierDocTypes)
        let response: DeviceResponse
        do {
            response = try timings.measure(.decode) { () throws(VerificationError) in try DeviceResponse(item) }
        } catch {
            log.fail(.responseStructure, error.code, error.message)
            return result
        }
        var documents: [Result<MdocDocument, VerificationError>] = []
        timings.measure(.decode) {
            documents = response.documents.map { node in Result { () throws(VerificationError) in try MdocDocument(node) } }
        }
        let parsed = documents.compactMap { try? $0.get() }
        let responseChecks = ResponseChecks(response: response, documents: parsed, request: request, earlierDocTypes: earlierDocTypes)
        responseChecks.run(&log)
        result.docTypeCounts = responseChecks.docTypeCounts
        result.count = documents.count

        let context = MdocVerificationContext(time: time, transcript: transcript, readerKey: readerKey, options: options,
                                              trustStore: trustStore, cache: cache, request: request,
                                              documentTimings: timings.nested(), revocationLookups: revocationLookups)
        let verified = Self.verifyDocuments(documents, from: firstDocumentIndex, context: context, log: &log, timings: &timings)
        // The format's own reading of the lines (e.g. mock data from a development device), before documents are released.
        review(&log, documents)
        if revocationLookups != nil { result.checked = verified }
        if !log.hasFailures {
            result.verified = verified.compactMap { $0.verifiedDocument() }
        }
        return result
    }

    /// Runs the checks of every document that parsed (numbered on from `firstIndex`) and appends their lines to
    /// `log`; a document that did not parse gets its `document.structure` failure.
    private static func verifyDocuments(_ documents: [Result<MdocDocument, VerificationError>], from firstIndex: Int,
                                        context: MdocVerificationContext, log: inout CheckLog,
                                        timings: inout StageTimings) -> [DocumentVerification] {
        var verified: [DocumentVerification] = []
        // Room for every document's lines at once (most checks write one line, a few more), so handing the log from
        // document to document never grows it.
        log.reserveCapacity(log.checks.count + documents.count * (1 + 2 * DocumentCheck.order.count))
        for (offset, result) in documents.enumerated() {
            let index = firstIndex + offset
            switch result {
            case .failure(let error):
                log.fail(.documentStructure, error.code, error.message, document: index)
            case .success(let document):
                log.pass(.documentStructure, document.docType, document: index)
                // The document's lines go into the caller's log itself: the verification holds it while its checks
                // run and hands it back, so no line is copied.
                // Appended first and run in place: the array holds the only copy.
                verified.append(DocumentVerification(index: index, document: document, context: context, continuing: log))
                log = CheckLog()
                verified[verified.count - 1].run()
                log = verified[verified.count - 1].handOverLog()
                timings += verified[verified.count - 1].timings
            }
        }
        return verified
    }
}
