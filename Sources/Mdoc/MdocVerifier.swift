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
        package var timings = StageTimings()
        /// Filled only when every mdoc check passed.
        package var documents: [VerifiedDocument] = []
    }

    static let responseClause = "ISO/IEC 18013-5 §8.3.2.1.2.2"

    package func verify(deviceResponse item: CBORItem, transcript: SessionTranscript, time: Date,
                        readerKey: PrivateKey? = nil, request: RequestPolicy?) -> Outcome {
        var outcome = Outcome()
        let response: DeviceResponse
        do {
            response = try outcome.timings.measure(\.decode) { () throws(VerificationError) in try DeviceResponse(item) }
        } catch {
            outcome.log.fail("response.structure", error.code, error.message, clause: Self.responseClause)
            return outcome
        }
        outcome.log.pass("response.structure", "DeviceResponse version \(response.version), \(response.documents.count) document(s)",
                         clause: Self.responseClause)
        if !response.version.hasPrefix("1.") {
            outcome.log.fail("response.version", .responseMalformed, "unsupported DeviceResponse version \(response.version)", clause: Self.responseClause)
        }
        if response.status != 0 {
            outcome.log.fail("response.status", .responseStatus, "DeviceResponse status is \(response.status) (0 = OK)", clause: Self.responseClause)
        } else if response.documents.isEmpty {
            outcome.log.fail("response.status", .responseStatus, "DeviceResponse holds no documents", clause: Self.responseClause)
        } else {
            outcome.log.pass("response.status", "status 0", clause: Self.responseClause)
        }
        if !response.documentErrors.isEmpty {
            let list = response.documentErrors.map { "\($0.docType) (code \($0.code))" }.joined(separator: ", ")
            outcome.log.warn("response.document_errors", "the wallet did not return: \(list)", clause: Self.responseClause)
        }

        let context = MdocVerificationContext(time: time, transcript: transcript, readerKey: readerKey, options: options,
                                              trustStore: trustStore, cache: cache, request: request)
        var verified: [DocumentVerification] = []
        for (index, node) in response.documents.enumerated() {
            let document: MdocDocument
            do {
                document = try outcome.timings.measure(\.decode) { () throws(VerificationError) in try MdocDocument(node) }
            } catch {
                outcome.log.fail("document.structure", error.code, error.message, clause: Self.responseClause, document: index)
                continue
            }
            var verification = DocumentVerification(index: index, document: document, context: context)
            verification.log.pass("document.structure", document.docType, clause: Self.responseClause, document: index)
            verification.run()
            outcome.log.append(contentsOf: verification.log)
            outcome.timings += verification.timings
            verified.append(verification)
        }
        if !outcome.log.hasFailures {
            outcome.documents = verified.compactMap { $0.verifiedDocument() }
        }
        return outcome
    }
}
