import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

/// VICALs the kit builds: docType scope, rollback and staleness, end to end through verification.
@Suite("MdocTesting VICALs: scope, rollback, staleness")
struct VICALBuilderTests {
    static let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("VICALBuilderTests")])]))

    /// Verifies a simulated mDL with the IACAs of `vical` as the trust store, scoped as the list says.
    static func verifyMDL(trusting vical: VICALVerification, pki: TestPKI, profile: CertificateProfile = .default,
                          refusedWhenStale: Bool = false) throws -> VerificationReport {
        let entries = vical.vical.entries
        let provenance = entries.map { entry in
            var recorded = vical.provenance(of: entry)
            recorded.refusedWhenStale = refusedWhenStale
            return (entry.certificate.sha256Fingerprint, recorded)
        }
        let store = TrustStore(anchors: entries.map(\.certificate), provenance: Dictionary(uniqueKeysWithValues: provenance))
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: SimulationOptions(time: Fixtures.time))
        return DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: store, profile: profile))
            .verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
    }

    @Test("an IACA listed for mDL anchors mDLs; listed only for the photo ID it anchors no mDL")
    func scope() throws {
        let pki = try TestPKI(seed: 21, at: Fixtures.time)
        let builder = try VICALBuilder(at: Fixtures.time)
        let forMDL = try VICALVerification(
            try builder.build(entries: [.init(pki.iaca, docTypes: [DocType.mDL])], issueID: 5, date: Fixtures.time, nextUpdate: nil),
            roots: [builder.root], at: Fixtures.time)
        #expect(try Self.verifyMDL(trusting: forMDL, pki: pki).verified)
        let forPhotoID = try VICALVerification(
            try builder.build(entries: [.init(pki.iaca, docTypes: [DocType.photoID])], issueID: 6, date: Fixtures.time, nextUpdate: nil),
            roots: [builder.root], at: Fixtures.time)
        let report = try Self.verifyMDL(trusting: forPhotoID, pki: pki)
        #expect(report.errors.map(\.code) == [.issuerChainUntrusted])
        #expect(report.errors.first?.message.contains("may anchor only \(DocType.photoID)") == true)
    }

    @Test("a lower issue ID than the imported one is vical.rollback; past nextUpdate the list is stale (strict refuses)")
    func rollbackAndStaleness() throws {
        let pki = try TestPKI(seed: 21, at: Fixtures.time)
        let builder = try VICALBuilder(at: Fixtures.time)
        let old = try builder.build(entries: [.init(pki.iaca, docTypes: [DocType.mDL])], issueID: 7,
                                    date: Fixtures.time.addingTimeInterval(-86_400 * 10), nextUpdate: Fixtures.time.addingTimeInterval(-86_400))
        #expect(throws: VerificationError(.vicalRollback, "vicalIssueID 7 is lower than issue 8 of MdocTesting accepted before; "
                                               + "pass --allow-rollback (server: allowRollback) to accept it on purpose")) {
            try VICALVerification(old, roots: [builder.root], at: Fixtures.time, previousIssueID: 8)
        }
        let stale = try VICALVerification(old, roots: [builder.root], at: Fixtures.time)
        guard case .stale = stale.freshness else {
            Issue.record("expected a stale list, got \(stale.freshness)")
            return
        }
        do {
            _ = try VICALVerification(old, roots: [builder.root], at: Fixtures.time, profile: .strict)
            Issue.record("strict accepted a stale list")
        } catch {
            #expect(error.code == .vicalStale)
        }
        // The operator's root, not the one the list carries: another root refuses it.
        let other = try VICALBuilder(seed: 99, at: Fixtures.time)
        #expect(throws: VerificationError.self) { try VICALVerification(old, roots: [other.root], at: Fixtures.time) }
    }

    @Test("the report names the VICAL an anchor came from and its freshness; a stale list warns, and strict refuses it (vical.stale)")
    func anchorSourceAndFreshness() throws {
        let pki = try TestPKI(seed: 21, at: Fixtures.time)
        let builder = try VICALBuilder(at: Fixtures.time)
        let dated = Fixtures.time.addingTimeInterval(-86_400 * 10)
        let fresh = try VICALVerification(
            try builder.build(entries: [.init(pki.iaca, docTypes: [DocType.mDL])], issueID: 9, date: dated,
                              nextUpdate: Fixtures.time.addingTimeInterval(86_400)),
            roots: [builder.root], at: Fixtures.time)
        let report = try Self.verifyMDL(trusting: fresh, pki: pki)
        #expect(report.verified, "\(report.errors)")
        let anchor = try #require(report.documents.first?.issuer.anchor)
        #expect(anchor.source == "VICAL MdocTesting issue 9 of \(RFC3339.Timestamp(dated))")
        #expect(anchor.selfSigned && !anchor.listStale)
        #expect(anchor.certificateSHA256 == pki.iaca.sha256Fingerprint)
        #expect(report.checks.contains { $0.id == .issuerCertificateChain && $0.status == .pass && $0.detail.contains("from VICAL MdocTesting issue 9") })
        #expect(!report.checks.contains { $0.status == .warn && !$0.id.rawValue.hasPrefix("revocation.") })

        let stale = try VICALVerification(
            try builder.build(entries: [.init(pki.iaca, docTypes: [DocType.mDL])], issueID: 10, date: dated,
                              nextUpdate: Fixtures.time.addingTimeInterval(-86_400)),
            roots: [builder.root], at: Fixtures.time)
        let warned = try Self.verifyMDL(trusting: stale, pki: pki)
        #expect(warned.verified, "\(warned.errors)")
        #expect(warned.documents.first?.issuer.anchor?.listStale == true)
        #expect(warned.checks.contains { $0.id == .issuerCertificateChain && $0.status == .warn && $0.detail.contains("the list is stale") })
        let strict = try Self.verifyMDL(trusting: stale, pki: pki, profile: .strict)
        #expect(strict.errors.map(\.code) == [.vicalStale])
        #expect(strict.documents.isEmpty)
        // An operator who refuses stale lists (verify-server's vicalStalePolicy refuse) marks the anchors: refused at
        // use under the default profile too, whatever the trust store was loaded with.
        let refused = try Self.verifyMDL(trusting: stale, pki: pki, refusedWhenStale: true)
        #expect(refused.errors.map(\.code) == [.vicalStale], "\(refused.errors)")
        #expect(refused.errors.first?.message.contains("vicalStalePolicy refuse") == true)
        #expect(refused.documents.isEmpty)
        #expect(try Self.verifyMDL(trusting: fresh, pki: pki, refusedWhenStale: true).verified, "a current list is not refused")
    }
}
