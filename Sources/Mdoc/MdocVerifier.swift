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

    package func verify(deviceResponse item: CBORItem, transcript: SessionTranscript, time: Date,
                        readerKey: PrivateKey? = nil, request: RequestPolicy?) -> Outcome {
        var outcome = Outcome()
        let response: DeviceResponse
        do {
            response = try outcome.timings.measure(.decode) { () throws(VerificationError) in try DeviceResponse(item) }
        } catch {
            outcome.log.fail(.responseStructure, error.code, error.message)
            return outcome
        }
        outcome.log.pass(.responseStructure, "DeviceResponse version \(response.version), \(response.documents.count) document(s)")
        if !response.version.hasPrefix("1.") {
            outcome.log.fail(.responseVersion, .responseMalformed, "unsupported DeviceResponse version \(response.version)")
        }
        if response.status != 0 {
            outcome.log.fail(.responseStatus, .responseStatus, "DeviceResponse status is \(response.status) (0 = OK)")
        } else if response.documents.isEmpty {
            outcome.log.fail(.responseStatus, .responseStatus, "DeviceResponse holds no documents")
        } else {
            outcome.log.pass(.responseStatus, "status 0")
        }
        if !response.documentErrors.isEmpty {
            let list = response.documentErrors.map { "\($0.docType) (code \($0.code))" }.joined(separator: ", ")
            outcome.log.warn(.responseDocumentErrors, "the wallet did not return: \(list)")
        }

        let context = MdocVerificationContext(time: time, transcript: transcript, readerKey: readerKey, options: options,
                                              trustStore: trustStore, cache: cache, request: request)
        var verified: [DocumentVerification] = []
        for (index, node) in response.documents.enumerated() {
            let document: MdocDocument
            do {
                document = try outcome.timings.measure(.decode) { () throws(VerificationError) in try MdocDocument(node) }
            } catch {
                outcome.log.fail(.documentStructure, error.code, error.message, document: index)
                continue
            }
            var verification = DocumentVerification(index: index, document: document, context: context)
            verification.log.pass(.documentStructure, document.docType, document: index)
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
