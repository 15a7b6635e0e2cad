import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// The one path every format takes: input ceiling → the format's adapter (envelope, decryption) → the
/// ISO/IEC 18013-5 checks → the request policy → the report. The check log, stage timings and assurance are
/// handled here once.
package struct VerificationPipeline: Sendable {
    package let configuration: VerifierConfiguration
    let signatureOnly: MdocVerifier
    let macOrSignature: MdocVerifier
    /// Receives every DeviceResponse an adapter opens (the inspectors only).
    let inspection: PipelineInspection?
    /// The formats whose documents `MockDataRule` reviews.
    let mockDataFormats: Set<VerificationReport.Format>

    package init(configuration: VerifierConfiguration, inspection: PipelineInspection? = nil,
                 mockDataFormats: Set<VerificationReport.Format> = MockDataRule.formats) {
        self.configuration = configuration
        self.inspection = inspection
        self.mockDataFormats = mockDataFormats
        let cache = configuration.certificateCache
        func verifier(deviceMac: Bool) -> MdocVerifier {
            MdocVerifier(trustStore: configuration.trustStore,
                         options: MdocVerificationOptions(profile: configuration.profile, clockSkew: configuration.clockSkew,
                                                          allowDeviceMac: deviceMac, revocation: configuration.revocation,
                                                          revocationSource: configuration.revocationSource),
                         cache: cache)
        }
        signatureOnly = verifier(deviceMac: false)
        macOrSignature = verifier(deviceMac: true)
    }

    /// Verifies `input` with `adapter`; the revocation checks note in `revocationLookups` the lists their source would
    /// have to fetch, and the verification leaves there how to finish once they are fetched (`VerificationDraft`).
    package func verify<Adapter: FormatAdapter>(_ adapter: Adapter, _ input: Adapter.Input, request: RequestPolicy?,
                                                at time: Date, revocationLookups: RevocationLookups? = nil) -> VerificationReport {
        var run = PipelineRun(limits: configuration.cborLimits, testMode: configuration.testMode)
        let mockData = MockDataRule(format: Adapter.format, testMode: configuration.testMode, formats: mockDataFormats)
        let assurance: VerificationReport.Assurance = configuration.testMode ? .test : .production
        func report(_ documents: [VerifiedDocument] = []) -> VerificationReport {
            VerificationReport(format: Adapter.format, assurance: assurance, log: run.log, documents: documents, timings: run.timings)
        }
        let size = adapter.inputSize(input)
        let limit = Self.inputLimit(configuration.cborLimits, isText: size.isText)
        guard size.bytes <= limit else {
            run.log.fail(.inputSize, .inputMalformed, "the response is \(size.bytes) bytes\(size.isText ? " of text" : ""); the limit is "
                         + "\(limit) (\(size.isText ? "4/3 of CBORLimits.maxInputBytes plus 4 KiB" : "CBORLimits.maxInputBytes"))")
            return report()
        }
        run.log.pass(.inputSize, "\(size.bytes) bytes\(size.isText ? " of text" : ""), within the \(limit)-byte limit")
        guard let opened = adapter.open(input, in: &run) else { return report() }
        inspection?.record(opened.deviceResponses)
        let mdoc = Adapter.acceptsDeviceMac ? macOrSignature : signatureOnly
        // Several DeviceResponses (one per presentation) are checked one after another; their documents are numbered
        // on, so every report line names a distinct document, and counted per docType across them all, so the
        // request's one document per docType holds for the answer, not for each DeviceResponse.
        var documents: [VerifiedDocument] = []
        var checked: [DocumentVerification] = []
        var documentCount = 0
        var docTypeCounts: [String: Int] = [:]
        for deviceResponse in opened.deviceResponses {
            let outcome = mdoc.verify(deviceResponse: deviceResponse, transcript: opened.transcript, time: time,
                                      readerKey: opened.readerKey, request: request, firstDocumentIndex: documentCount,
                                      earlierDocTypes: docTypeCounts, revocationLookups: revocationLookups,
                                      log: &run.log, timings: &run.timings) { [documentCount] log, parsed in
                mockData?.review(&log, documents: parsed, firstDocumentIndex: documentCount)
            }
            documents += outcome.verified
            checked += outcome.checked
            documentCount += outcome.count
            docTypeCounts = outcome.docTypeCounts
        }
        if let revocationLookups, !revocationLookups.wants.isEmpty {
            let draft = VerificationDraft(format: Adapter.format, assurance: assurance, log: run.log, timings: run.timings,
                                          documents: checked.map(\.detachedFromRevocationLookups))
            revocationLookups.deferring { draft.finished() }
        }
        return report(run.log.hasFailures ? [] : documents)
    }

    /// The ceiling on what a caller hands in: the CBOR limit, or for text (base64 in JSON, counted in UTF-8 bytes)
    /// 4/3 of it plus 4 KiB.
    static func inputLimit(_ limits: CBORLimits, isText: Bool) -> Int {
        isText ? limits.maxInputBytes / 3 * 4 + 4096 : limits.maxInputBytes
    }
}
