import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Synchronization
import Testing
import TestSupport
import Verifier

/// The one place each fault's verdict is asserted: every fault × every format it applies to, built by the kit and
/// verified once through the format's request flow, as `verify-server` verifies it. Each row's report must carry
/// exactly the fault's code (or verify, for the encodings a verifier must accept), agree with the kit's prediction,
/// stay inside the check catalog, and hash to its recorded snapshot. Each row would fail if its fault were not
/// applied: an unfaulted response verifies (see `PositiveVariantTests`), and every coded row demands a rejection.
///
/// The front-ends keep a few named rows each, to show they pass the library's outcome through (`SimulatedWalletTests`,
/// `RevocationFetchServerTests`, `AnnexCRoundTripTests`, `SimulateCLITests`); CI's conformance run sends every case
/// of the corpus through `verify-server` and `mdocverify`.
@Suite("Fault table: each fault in each format ends in its code")
struct FaultTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let fault: Fault
        let format: ResponseFormat
        var testDescription: String { "\(fault.name) (\(format.rawValue))" }

        /// The issuer and device curve of the row: brainpoolP384r1 for the bare DeviceResponse, so the table also
        /// holds on a non-NIST curve (signatures, certificates and device authentication); P-256 elsewhere.
        var curve: Curve { format == .deviceResponse ? .brainpoolP384r1 : .p256 }

        func run() throws -> SimulatedCase.Result {
            try SimulatedCase(faults: [fault], format: format, curve: curve, time: Fixtures.time) { $0.deviceCurve = curve }.run()
        }
    }

    static let rows: [Row] = Fault.allCases.flatMap { fault in
        [ResponseFormat.appleApp, .annexC, .deviceResponse, .openID4VP].filter { fault.formats.contains($0) }.map { Row(fault: fault, format: $0) }
    }

    /// The code each fault must produce, written out here rather than read from `Fault.expectedCode`, so the table
    /// checks the kit's oracle and the verifier against an independent statement (nil: still verifies).
    static func code(_ fault: Fault, _ format: ResponseFormat) -> ErrorCode? {
        switch fault.name {
        case "tampered-element-value": .digestMismatch
        case "missing-digest-id": .digestMissing
        case "duplicate-digest-id", "duplicate-item", "duplicate-element": .digestDuplicate
        case "issuer-signature-corrupted": .issuerSignatureInvalid
        // A zeroed issuer signature beside a valid device signature: mock data in the formats Apple's wallet produces only.
        case "mock-data": format == .appleApp || format == .annexC ? .issuerMockData : .issuerSignatureInvalid
        case "untrusted-root", "intermediate-ca": .issuerChainUntrusted
        case "document-signer-expired", "document-signer-not-yet-valid": .issuerCertificateExpired
        case "document-signer-wrong-eku", "document-signer-key-usage-without-digital-signature", "document-signer-is-ca":
            .issuerCertificateProfile
        case "mso-expired", "mso-expired-minutes": .msoExpired
        // Signed before the Document Signer's validity: not signed while the certificate was valid.
        case "mso-signed-before-certificate": .issuerCertificateExpired
        case "mso-version-unsupported": .msoMalformed
        case "response-status-nonzero": .responseStatus
        case "response-version-unsupported": .responseMalformed
        case "mso-not-yet-valid": .msoNotYetValid
        case "mso-doctype-mismatch": .msoDocTypeMismatch
        case "unsupported-digest-algorithm", "sha1-digests": .msoDigestAlgorithmUnsupported
        case "unsupported-cose-algorithm": .issuerAlgorithmUnsupported
        case "issuer-crit-unknown", "issuer-crit-unprotected", "issuer-alg-unprotected", "device-crit-unknown": .coseHeaderInvalid
        case "device-signature-other-transcript", "device-key-mismatch": .deviceSignatureInvalid
        case "device-signed-element-unauthorized": .deviceKeyUnauthorized
        case "device-signed-element-not-requested": .policyElementNotRequested
        case "device-mac-without-reader-key": .deviceAuthMissing
        case "duplicate-document", "document-errors-conflict": .responseMalformed
        case "duplicate-doctype": .policyDocTypeRepeated
        // OpenID4VP: a JWE to another key, or with a changed ciphertext, fails AES-GCM.
        case "encrypted-to-other-key" where format == .openID4VP, "corrupted-ciphertext" where format == .openID4VP: .jweDecryptionFailed
        case "encrypted-to-other-key": format == .appleApp ? .envelopeRecipientMismatch : .hpkeOpenFailed
        case "wrong-info-hash": .envelopeTranscriptMismatch
        case "corrupted-ciphertext": .hpkeOpenFailed
        case "unsupported-envelope-algorithm", "unsupported-envelope-mode": .envelopeUnsupported
        case "truncated-envelope": .inputMalformed
        case "document-signer-revoked": .issuerCertificateRevoked
        case "status-revoked": .statusRevoked
        case "status-suspended": .statusSuspended
        // The kit verifies under the hard revocation policy: a status it cannot determine rejects.
        case "status-list-expired", "status-list-sub-mismatch", "status-list-expired-float-exp", "status-list-issued-in-future",
             "status-list-wrong-type", "crl-stale", "crl-wrong-signer":
            .revocationUnknown
        // A list signed outside this document's issuer (another trusted issuer included) is refused under any policy.
        case "status-list-untrusted", "status-list-other-issuer": .statusSignerUntrusted
        case "status-index-out-of-range": .statusInvalid
        // Both mechanisms are consulted; the identifier list's revoked answer wins over the status list's valid one.
        case "identifier-list-revoked": .statusRevoked
        default: nil
        }
    }

    @Test("fault → its code (or verified), the kit's prediction, catalog codes and the recorded report", arguments: rows)
    func row(_ row: Row) throws {
        let result = try row.run()
        let report = result.report
        let codes = Set(report.errors.map(\.code))
        if let code = Self.code(row.fault, row.format) {
            #expect(!report.verified)
            #expect(codes == [code], "\(expectation(report, .rejected(code)) ?? "")")
            #expect(report.documents.isEmpty)
        } else {
            #expect(report.verified, "\(report.errors)")
        }
        // The kit's own prediction agrees with the table, so users who rely on it get the same answer.
        #expect(result.expected == (Self.code(row.fault, row.format).map(ExpectedOutcome.rejected) ?? .verified))
        #expect(result.failure == nil, "\(result.failure ?? "")")
        // Every check id is in the catalog, and a failed check carries a code its catalog entry lists.
        let known = Set(CheckID.verificationChecks.map(\.rawValue))
        for check in report.checks {
            #expect(known.contains(check.id.rawValue), "\(check.id) is not in CheckID.verificationChecks")
            if let code = check.code {
                let entry = CheckID.verificationChecks.first { $0 == check.id }
                #expect(entry?.codes.contains(code) == true, "\(check.id) failed with \(code), which its catalog entry does not list")
            }
        }
        // Reports are product: the compact report is the recorded one (ReportSnapshotTests explains the file).
        ReportSnapshotTests.expectSameBytes(report)
        try FaultTableSnapshot.check(row, report)
    }

    @Test("every fault has its one-line summary")
    func everyFaultHasASummary() {
        #expect(Fault.allCases.filter { Fault.summaries[$0] == nil }.isEmpty)
    }

    @Test("the recorded fault-table snapshot lists exactly the table's rows, in table order")
    func snapshotRows() {
        guard !ReportSnapshotTests.recording else { return }
        #expect(FaultTableSnapshot.recorded.map { $0.row } == Self.rows.map(FaultTableSnapshot.name),
                "rows were added, removed or reordered: rerun with RECORD_REPORTS=1 and review the diff")
    }

    @Test("document-signer-no-key-usage: a warning under the default profile, issuer.certificate_profile under strict")
    func noKeyUsageByProfile() throws {
        let lenient = try SimulatedCase(faults: [.documentSignerNoKeyUsage], time: Fixtures.time).run()
        #expect(lenient.failure == nil, "\(lenient.failure ?? "")")
        #expect(lenient.report.checks.contains { $0.id == .issuerCertificateProfile && $0.status == .warn })
        let strict = try SimulatedCase(faults: [.documentSignerNoKeyUsage], profile: .strict, time: Fixtures.time).run()
        #expect(strict.expected == .rejected(.issuerCertificateProfile))
        #expect(strict.failure == nil, "\(strict.failure ?? "")")
    }

    @Test("the faults that must still verify change the bytes: non-shortest heads and unknown keys are really there")
    func encodingFaultsAreApplied() throws {
        let (request, _) = try Fixtures.appleRequest()
        let simulator = try MdocSimulator(seed: 1, at: Fixtures.time)
        let plain = try simulator.simulate(.appleApp(request), options: Fixtures.options())
        let loose = try simulator.simulate(.appleApp(request), options: Fixtures.options([.nonShortestCBOR]))
        #expect(!plain.deviceResponse.starts(with: [0xb9, 0x00]))
        #expect(loose.deviceResponse.starts(with: [0xb9, 0x00, 0x03]))
        let mso = try Fixtures.mso(ofDeviceResponse: loose.deviceResponse)
        #expect(mso.raw.starts(with: [0xb9, 0x00, 0x07]))  // version, digestAlgorithm, valueDigests, deviceKeyInfo, docType, validityInfo, status
        let item = try #require(CBORDecoder.decode(loose.deviceResponse)["documents"]?.array?.first?["issuerSigned"]?["nameSpaces"]?[NameSpace.mDL]?.array?.first)
        let inner = try item.decodeEmbedded()
        #expect(inner.inner.starts(with: [0xb9, 0x00, 0x04]))
        #expect(inner.item["digestID"]?.raw.first == 0x18)

        let extra = try simulator.simulate(.appleApp(request), options: Fixtures.options([.unknownMapKeys]))
        let marker = Array("x-mdoc-testing".utf8)
        func count(_ bytes: [UInt8]) -> Int {
            (0 ... bytes.count - marker.count).filter { bytes[$0 ..< $0 + marker.count].elementsEqual(marker) }.count
        }
        #expect(count(plain.deviceResponse) == 0)
        // DeviceResponse, Document, MSO and each of the 32 IssuerSignedItems.
        #expect(count(extra.deviceResponse) == 35)
        let envelope = try CBORDecoder.decode(extra.bytes)
        #expect(envelope["x-mdoc-testing"] != nil && envelope["params"]?["x-mdoc-testing"] != nil)
    }

    @Test("every fault has a unique command-line name that parses back, a description and at least one format")
    func catalogue() {
        #expect(Set(Fault.allCases.map(\.name)).count == Fault.allCases.count)
        for fault in Fault.allCases {
            #expect(Fault(name: fault.name) == fault)
            #expect(!fault.summary.isEmpty)
            #expect(!fault.formats.isEmpty)
        }
        #expect(Fault(name: "no-such-fault") == nil)
        #expect(Fault.allCases.filter { $0.expectedCode(format: .appleApp) == nil } == [.documentSignerNoKeyUsage, .nonShortestCBOR, .unknownMapKeys])
    }
}

/// `TestVectors/reports/fault-table.sha256`: one line per row, "format fault SHA-256", the hash of the row's compact
/// JSON report with what randomized ECDSA signatures change masked (certificate fingerprints, and the sizes a DER
/// length moves by a byte). With `RECORD_REPORTS=1` each row writes its line back, the others keep theirs.
enum FaultTableSnapshot {
    static let file = ReportSnapshotTests.folder + "fault-table.sha256"

    /// The recorded lines, split into the row ("format fault") and the hash.
    static let recorded: [(row: String, hash: String)] = VectorFiles.text(file).split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ")
        guard words.count == 3 else { return nil }
        return ("\(words[0]) \(words[1])", String(words[2]))
    }

    static func name(_ row: FaultTableTests.Row) -> String { "\(row.format.rawValue) \(row.fault.name)" }

    static func digest(of report: VerificationReport) -> (hash: String, json: String) {
        let json = report.json.serialized()
            .replacing(/[0-9]+(-byte| bytes)/) { "#" + $0.output.1 }
            .replacing(/"certificateSHA256":"[0-9a-f]+"/) { _ in "\"certificateSHA256\":\"#\"" }
        return (Hex.encode(Digest.hash(.sha256, Array(json.utf8))), json)
    }

    static func check(_ row: FaultTableTests.Row, _ report: VerificationReport) throws {
        let (hash, json) = digest(of: report)
        if ReportSnapshotTests.recording {
            try record(name(row), hash)
            return
        }
        let recordedHash = recorded.first { $0.row == name(row) }?.hash
        #expect(recordedHash == hash, "the report of \(name(row)) differs from \(file); rerun with RECORD_REPORTS=1 only if the change is intended: \(json)")
    }

    /// Lines recorded by this run; the file is rewritten in table order after each.
    private static let recordedNow = Mutex<[String: String]>([:])

    private static func record(_ row: String, _ hash: String) throws {
        try recordedNow.withLock { lines in
            lines[row] = hash
            let kept = Dictionary(recorded.map { ($0.row, $0.hash) }, uniquingKeysWith: { first, _ in first })
            let text = FaultTableTests.rows.map(name).compactMap { row in (lines[row] ?? kept[row]).map { "\(row) \($0)" } }
            try Data((text.joined(separator: "\n") + "\n").utf8).write(to: VectorFiles.url(file))
        }
    }
}
