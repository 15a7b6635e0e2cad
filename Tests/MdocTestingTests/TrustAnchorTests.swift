import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

/// What an operator may put in the trust store: any certificate it trusts, scoped to docTypes when a trust list says so.
@Suite("Trust anchors: pinned non-roots, docType scope, manifests")
struct TrustAnchorTests {
    static let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("TrustAnchorTests")])]))

    static func verify(_ options: SimulationOptions = SimulationOptions(time: Fixtures.time), pki: TestPKI? = nil, store: (TestPKI) -> TrustStore,
                       profile: CertificateProfile = .default) throws -> VerificationReport {
        let pki = try pki ?? TestPKI(seed: 11, at: Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: options)
        return DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: store(pki), profile: profile))
            .verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
    }

    @Test("a self-signed IACA anchor is named as a root in the report")
    func rootAnchor() throws {
        let report = try Self.verify { TrustStore(anchors: [$0.iaca]) }
        #expect(report.verified, "\(report.errors)")
        #expect(report.checks.contains { $0.id == .issuerCertificateChain && $0.status == .pass && $0.detail.hasSuffix("(self-signed root)") })
    }

    @Test("a pinned document signer anchors: a warning under the default profile, issuer.chain_untrusted under strict")
    func pinnedDocumentSigner() throws {
        let store: (TestPKI) -> TrustStore = { TrustStore(anchors: [$0.documentSigner], allowNonSelfSignedAnchors: true) }
        let lenient = try Self.verify(store: store)
        #expect(lenient.verified, "\(lenient.errors)")
        #expect(lenient.checks.contains { $0.id == .issuerCertificateChain && $0.status == .warn && $0.detail.contains("not a self-signed root") })
        let strict = try Self.verify(store: store, profile: .strict)
        #expect(Set(strict.errors.map(\.code)).contains(.issuerChainUntrusted))
        #expect(strict.documents.isEmpty)
    }

    @Test("a pinned intermediate CA anchors the document signers it issued")
    func pinnedIntermediate() throws {
        let pki = try TestPKI(seed: 12, at: Fixtures.time, iacaPathLength: nil)
        let intermediate = try pki.issueIntermediateCA(label: "fault", at: Fixtures.time).certificate
        let report = try Self.verify(SimulationOptions(time: Fixtures.time, faults: [.intermediateCA]), pki: pki) { _ in
            TrustStore(anchors: [intermediate], allowNonSelfSignedAnchors: true)
        }
        #expect(report.verified, "\(report.errors)")
        #expect(report.checks.contains { $0.id == .issuerCertificateChain && $0.detail.contains("MdocTesting Intermediate CA") })
    }

    @Test("an anchor scoped to other docTypes anchors nothing else: issuer.chain_untrusted saying why")
    func docTypeScope() throws {
        let scoped = try Self.verify { TrustStore(anchors: [$0.iaca], provenance: [$0.iaca.sha256Fingerprint: AnchorProvenance(docTypes: [DocType.photoID])]) }
        #expect(scoped.errors.map(\.code) == [.issuerChainUntrusted])
        #expect(scoped.errors.first?.message.contains("may anchor only \(DocType.photoID)") == true)
        let allowed = try Self.verify { TrustStore(anchors: [$0.iaca], provenance: [$0.iaca.sha256Fingerprint: AnchorProvenance(docTypes: [DocType.mDL])]) }
        #expect(allowed.verified, "\(allowed.errors)")
    }

    @Test("TrustFolder reads a folder's manifest.json: scopes, and the VICAL an import recorded as the source")
    func manifestScopes() throws {
        let pki = try TestPKI(seed: 11, at: Fixtures.time)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try pki.iaca.pemEncoded.write(to: folder.appendingPathComponent("iaca.pem"), atomically: true, encoding: .utf8)
        let manifest = #"{"provider": "Example", "vicalIssueID": 4, "date": "2026-01-01T00:00:00Z", "nextUpdate": "2026-02-01T00:00:00.5Z", "#
            + #""entries": [{"file": "iaca.pem", "certificateSHA256": "\#(Hex.encode(pki.iaca.sha256Fingerprint))", "docTypes": ["org.iso.7367.1.mVRC"]}]}"#
        try manifest.write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        let store = try TrustFolder.trustStore(paths: [folder.path])
        let provenance = try #require(store.provenance[pki.iaca.sha256Fingerprint])
        #expect(provenance.docTypes == ["org.iso.7367.1.mVRC"])
        #expect(provenance.source == "VICAL Example issue 4 of 2026-01-01T00:00:00Z")
        #expect(provenance.listNextUpdate == RFC3339.parseDateTime("2026-02-01T00:00:00.5Z"))
        #expect(store.allowsNonSelfSignedAnchors)
        // A plain file path reads no manifest; a broken nextUpdate names the file.
        #expect(try TrustFolder.trustStore(paths: [folder.appendingPathComponent("iaca.pem").path]).provenance.isEmpty)
        try manifest.replacingOccurrences(of: "2026-02-01T00:00:00.5Z", with: "soon")
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        #expect(throws: CryptoError.self) { try TrustFolder.trustStore(paths: [folder.path]) }
    }
}
