import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import Testing
import TestSupport
import Verifier

/// Reports are product: speed work must not change a single check, detail or element. The JSON reports of Apple's
/// sample and the Annex D example are kept in `TestVectors/reports/` and compared byte for byte; for the rows of the
/// simulator's fault table, the SHA-256 of each compact report. After a deliberate change to a report, run the suite
/// with `RECORD_REPORTS=1` and review the diff of those files.
@Suite("Report snapshots: Apple sample, Annex D and the fault table produce the recorded reports")
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

    @Test("every fault × format row of the simulator (SHA-256 of each compact report, sizes masked)")
    func faultTable() throws {
        var lines: [String] = []
        var reports: [String: String] = [:]
        for row in FaultTableTests.rows {
            let report = try SimulatedCase(faults: [row.fault], format: row.format, time: Fixtures.time).run().report
            Self.expectSameBytes(report)
            // The kit's ECDSA signatures are randomized: certificate fingerprints change from run to run, and DER lengths,
            // with them a few stated sizes, by a byte. Those are masked; everything else must match.
            let json = report.json.serialized()
                .replacing(/[0-9]+(-byte| bytes)/) { "#" + $0.output.1 }
                .replacing(/"certificateSHA256":"[0-9a-f]+"/) { _ in "\"certificateSHA256\":\"#\"" }
            let line = "\(row.format.rawValue) \(row.fault.name) \(Hex.encode(Digest.hash(.sha256, Array(json.utf8))))"
            lines.append(line)
            reports[line] = json
        }
        let actual = lines.joined(separator: "\n") + "\n"
        if !Self.recording {
            // Name the rows that changed, with their new report, before the whole-file comparison.
            let recorded = Set(VectorFiles.text(Self.folder + "fault-table.sha256").split(separator: "\n").map(String.init))
            for line in lines where !recorded.contains(line) {
                Issue.record("report changed for \(line.split(separator: " ").prefix(2).joined(separator: " ")): \(reports[line] ?? "")")
            }
        }
        try Self.compare(actual, "fault-table.sha256")
    }
}
