import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// Reports are product: speed work must not change a single check, detail or element. The JSON reports of Apple's
/// sample and the Annex D example are kept in `TestVectors/reports/` and compared byte for byte; for the rows of the
/// simulator's fault table, the SHA-256 of each compact report (checked by `FaultTableTests`, row by row). After a
/// deliberate change to a report, run the suite with `RECORD_REPORTS=1` and review the diff of those files.
@Suite("Report snapshots: Apple's sample and Annex D produce the recorded reports")
struct ReportSnapshotTests {
    static let folder = "TestVectors/reports/"
    static let recording = ProcessInfo.processInfo.environment["RECORD_REPORTS"] == "1"

    static func compare(_ actual: String, _ file: String) throws {
        let url = VectorFiles.url(folder + file)
        if recording {
            try Data(actual.utf8).write(to: url)
            return
        }
        let recorded = VectorFiles.text(folder + file)
        #expect(recorded == actual, "the report differs from \(folder + file); rerun with RECORD_REPORTS=1 only if the change is intended")
    }

    /// The server writes reports with `jsonBytes` (no tree); they must be the bytes the recorded tree serializes to.
    static func expectSameBytes(_ report: VerificationReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.jsonBytes() == report.json.serializedBytes(), "jsonBytes differs from the tree's serialization",
                sourceLocation: sourceLocation)
        let withID = report.jsonBytes(leading: [("requestId", "r-1")])
        #expect(withID == JSONValue.object([("requestId", .string("r-1"))] + members(report.json)).serializedBytes(), sourceLocation: sourceLocation)
    }

    private static func members(_ value: JSONValue) -> [(String, JSONValue)] {
        guard case .object(let pairs) = value else { return [] }
        return pairs
    }

    @Test("Apple's signed sample")
    func appleSample() throws {
        let sample = AppleSignedSample.self
        let verifier = try AppleAppVerifier(
            configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [try sample.issuerRoot()]), testMode: true),
            keys: [try sample.merchantKey()])
        let report = verifier.verify(encryptedData: sample.envelope,
                                     session: AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID),
                                     at: sample.time)
        #expect(report.verified)
        Self.expectSameBytes(report)
        try Self.compare(report.json.serialized(pretty: true) + "\n", "apple-sample.json")
    }

    @Test("ISO/IEC 18013-5 Annex D")
    func annexD() throws {
        let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [try AnnexDVector.iaca()])))
        let report = verifier.verify(deviceResponse: AnnexDVector.deviceResponse, transcript: try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes),
                                     readerKey: try AnnexDVector.readerKey(), request: nil, at: AnnexDVector.validTime)
        #expect(report.verified)
        Self.expectSameBytes(report)
        try Self.compare(report.json.serialized(pretty: true) + "\n", "annex-d.json")
    }
}
