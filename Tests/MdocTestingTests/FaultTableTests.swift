import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import Testing
import Verifier

/// Every fault × every format it applies to → the verifier's verdict is exactly the fault's expected code
/// (or still verified, for the encodings a verifier must accept). Each row would fail if its fault were not
/// applied: an unfaulted response verifies (see `PositiveVariantTests`), and every coded row demands a rejection.
@Suite("MdocTesting: fault table")
struct FaultTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let fault: Fault
        let format: ResponseFormat
        var testDescription: String { "\(fault.name) (\(format.rawValue))" }
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
        case "duplicate-digest-id": .digestDuplicate
        case "issuer-signature-corrupted": .issuerSignatureInvalid
        // A zeroed issuer signature beside a valid device signature: mock data in the formats Apple's wallet produces only.
        case "mock-data": format == .appleApp || format == .annexC ? .issuerMockData : .issuerSignatureInvalid
        case "untrusted-root", "intermediate-ca": .issuerChainUntrusted
        case "document-signer-expired", "document-signer-not-yet-valid": .issuerCertificateExpired
        case "document-signer-wrong-eku", "document-signer-key-usage-without-digital-signature", "document-signer-is-ca":
            .issuerCertificateProfile
        case "mso-expired": .msoExpired
        case "mso-not-yet-valid": .msoNotYetValid
        case "mso-doctype-mismatch": .msoDocTypeMismatch
        case "unsupported-digest-algorithm": .msoDigestAlgorithmUnsupported
        case "unsupported-cose-algorithm": .issuerAlgorithmUnsupported
        case "issuer-crit-unknown", "issuer-crit-unprotected", "issuer-alg-unprotected", "device-crit-unknown": .coseHeaderInvalid
        case "device-signature-other-transcript", "device-key-mismatch": .deviceSignatureInvalid
        case "device-signed-element-unauthorized": .deviceKeyUnauthorized
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
        case "status-list-expired", "status-list-sub-mismatch", "status-list-expired-float-exp", "status-list-issued-in-future":
            .revocationUnknown
        // A list signed outside this document's issuer (another trusted issuer included) is refused under any policy.
        case "status-list-untrusted", "status-list-other-issuer": .statusSignerUntrusted
        case "status-index-out-of-range": .statusInvalid
        // Both mechanisms are consulted; the identifier list's revoked answer wins over the status list's valid one.
        case "identifier-list-revoked": .statusRevoked
        default: nil
        }
    }

    @Test("fault → expected code", arguments: rows)
    func row(_ row: Row) throws {
        let result = try SimulatedCase(faults: [row.fault], format: row.format, time: Fixtures.time).run()
        let codes = Set(result.report.errors.map(\.code))
        if let code = Self.code(row.fault, row.format) {
            #expect(!result.report.verified)
            #expect(codes == [code], "\(expectation(result.report, .rejected(code)) ?? "")")
            #expect(result.report.documents.isEmpty)
        } else {
            #expect(result.report.verified, "\(result.report.errors)")
        }
        // The kit's own prediction agrees with the table, so users who rely on it get the same answer.
        #expect(result.expected == (Self.code(row.fault, row.format).map(ExpectedOutcome.rejected) ?? .verified))
        #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("the fault table holds on a brainpoolP384r1 issuer and device key", arguments: rows.filter { $0.format == .appleApp })
    func brainpoolRow(_ row: Row) throws {
        let result = try SimulatedCase(faults: [row.fault], format: row.format, curve: .brainpoolP384r1, time: Fixtures.time) {
            $0.deviceCurve = .brainpoolP384r1
        }.run()
        let codes = Set(result.report.errors.map(\.code))
        if let code = Self.code(row.fault, row.format) {
            #expect(codes == [code], "\(expectation(result.report, .rejected(code)) ?? "")")
        } else {
            #expect(result.report.verified, "\(result.report.errors)")
        }
    }

    @Test("every failed check carries a code its catalog entry lists, and every check id is in the catalog", arguments: rows)
    func catalogHoldsTheReport(_ row: Row) throws {
        let report = try SimulatedCase(faults: [row.fault], format: row.format, time: Fixtures.time).run().report
        let known = Set(CheckID.verificationChecks.map(\.rawValue))
        for check in report.checks {
            #expect(known.contains(check.id.rawValue), "\(check.id) is not in CheckID.verificationChecks")
            let entry = CheckID.verificationChecks.first { $0 == check.id }
            if let code = check.code {
                #expect(entry?.codes.contains(code) == true, "\(check.id) failed with \(code), which its catalog entry does not list")
            }
        }
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
