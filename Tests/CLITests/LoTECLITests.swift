import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport

/// `mdocverify trust lote verify|import`: the EC's real acceptance list, and kit-signed lists for rollback, staleness,
/// withdrawn services, scope and another signer, ending in `verify device-response` against the imported folder.
@Suite("mdocverify trust lote")
struct LoTECLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let at = RFC3339.format(time)
    static let day: TimeInterval = 86_400
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("LoTECLITests")]))
    static let realList = VectorFiles.url("TestVectors/trust/lote/ec-acceptance-wallet-providers-seq1.jwt").path
    static let realSigner = VectorFiles.url("TestVectors/trust/lote/ec-acceptance-lote-signer.pem").path
    static let walletIssuance = "http://uri.etsi.org/19602/SvcType/WalletSolution/Issuance"
    static let mdlMap = "\(LoTEBuilder.mdlIssuance)=\(DocType.mDL)"

    struct Fixture {
        let builder: LoTEBuilder
        let issuerA: TestPKI
        let issuerB: TestPKI
        let folder: URL

        init() throws {
            builder = try LoTEBuilder(seed: 5, at: LoTECLITests.time)
            issuerA = try TestPKI(seed: 71, at: LoTECLITests.time)
            issuerB = try TestPKI(seed: 72, at: LoTECLITests.time)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("lote-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(PEMText.certificate(builder.root).utf8).write(to: folder.appendingPathComponent("root.pem"))
        }

        var trust: String { folder.appendingPathComponent("trust").path }
        var root: String { folder.appendingPathComponent("root.pem").path }

        /// An mDL list of `sequence` holding `services`, written to a file; its path.
        func list(_ sequence: UInt64, _ services: [LoTEBuilder.Service], nextUpdate: Date = LoTECLITests.time + 30 * LoTECLITests.day,
                  by signer: LoTEBuilder? = nil) throws -> String {
            let bytes = try (signer ?? builder).build(services: services, sequenceNumber: sequence, issued: LoTECLITests.time - LoTECLITests.day,
                                                      nextUpdate: nextUpdate, type: LoTEBuilder.mdlListType)
            let path = folder.appendingPathComponent("lote-\(sequence)-\(UUID().uuidString).jwt").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        func service(_ pki: TestPKI, status: String? = nil, since: Date? = nil) -> LoTEBuilder.Service {
            .init([pki.iaca], type: LoTEBuilder.mdlIssuance, entityName: "Issuer \(pki.iaca.subject)", status: status, statusStartingTime: since)
        }

        func importList(_ path: String, map: String = LoTECLITests.mdlMap, _ extra: [String] = []) throws -> MdocVerifyCLI.Run {
            try MdocVerifyCLI.run(["trust", "lote", "import", path, "--root", root, "--doctype-map", map, "--at", LoTECLITests.at, "--out", trust] + extra)
        }

        /// `mdocverify verify device-response` of an mDL signed under `pki`, against the imported folder.
        func verifyMDL(_ pki: TestPKI) throws -> MdocVerifyCLI.Run {
            let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(LoTECLITests.transcript), options: SimulationOptions(time: LoTECLITests.time))
            let responseFile = try MdocVerifyCLITests.temporaryFile(response.bytes)
            let transcriptFile = try MdocVerifyCLITests.temporaryFile(LoTECLITests.transcript.bytes)
            return try MdocVerifyCLI.run(["verify", "device-response", "--device-response", responseFile, "--session-transcript", transcriptFile,
                                          "--at", LoTECLITests.at, "--revocation", "off", "--trust", trust])
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("verify: the EC acceptance list verifies as of 2026-01-01 with its signer pinned by file or SHA-256, and lists both services")
    func verifyReal() throws {
        let run = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root", Self.realSigner, "--at", "2026-01-01T00:00:00Z",
                                         "--doctype-map", "\(Self.walletIssuance)=org.example.wallet.1"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("VERIFIED LoTE from European Commission (fresh)"))
        #expect(run.stdout.contains("signed RS512 by"))
        #expect(run.stdout.contains("PagoPA Wallet Provider Root CA") && run.stdout.contains("Microsec Ltd."))
        #expect(run.stdout.components(separatedBy: "anchors org.example.wallet.1").count == 3, "\(run.stdout)")
        let json = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root-sha256",
                                          "0ccf87a5abf4db89bde4e10202e2523296bea7d835ba6a5a41054b9e1e6b8949", "--at", "2026-01-01T00:00:00Z", "--json"])
        #expect(json.status == 0, "\(json.stdout) \(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["sequenceNumber"] as? Int == 1 && object["algorithm"] as? String == "RS512")
        #expect((object["services"] as? [[String: Any]])?.allSatisfy { $0["anchoredDocTypes"] is NSNull } == true)
        // A second pin that names no certificate of the list (a rotation's other root, or a typo) is said, not dropped silently.
        let typo = String(repeating: "ab", count: 32)
        let twoPins = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root-sha256",
                                             "0ccf87a5abf4db89bde4e10202e2523296bea7d835ba6a5a41054b9e1e6b8949", "--root-sha256", typo,
                                             "--at", "2026-01-01T00:00:00Z"])
        #expect(twoPins.status == 0 && twoPins.stderr.contains("note: --root-sha256 \(typo) names no certificate"), "\(twoPins.stderr)")
    }

    @Test("verify: the real list now is STALE (strict refuses, lote.stale); another pinned root is lote.signer_untrusted; no root is a usage error")
    func verifyRealRefused() throws {
        let later = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root", Self.realSigner, "--at", "2026-07-01T00:00:00Z"])
        #expect(later.status == 0 && later.stdout.contains("STALE since 2026-06-01T08:29:41Z"), "\(later.stdout)")
        let strict = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root", Self.realSigner, "--at", "2026-07-01T00:00:00Z",
                                            "--profile", "strict"])
        #expect(strict.status == 1 && strict.stdout.contains("REJECTED LoTE — lote.stale"), "\(strict.stdout)")
        let fixture = try Fixture()
        defer { fixture.remove() }
        let other = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root", fixture.root, "--at", "2026-01-01T00:00:00Z"])
        #expect(other.status == 1 && other.stdout.contains("lote.signer_untrusted"), "\(other.stdout)")
        let none = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--at", "2026-01-01T00:00:00Z"])
        #expect(none.status == 2 && none.stderr.contains("--root"), "\(none.stderr)")
        let unmatched = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root-sha256", String(repeating: "0", count: 64),
                                               "--at", "2026-01-01T00:00:00Z", "--json"])
        let refusal = try JSONSerialization.jsonObject(with: Data(unmatched.stdout.utf8)) as? [String: Any]
        #expect(unmatched.status == 1 && (refusal?["error"] as? [String: Any])?["code"] as? String == "lote.signer_untrusted",
                "\(unmatched.stdout) \(unmatched.stderr)")
        let badMap = try MdocVerifyCLI.run(["trust", "lote", "verify", Self.realList, "--root", Self.realSigner, "--doctype-map", "nothing"])
        #expect(badMap.status == 2 && badMap.stderr.contains("--doctype-map"), "\(badMap.stderr)")
    }

    @Test("import: an mDL of an active, mapped issuer verifies against the folder; the report names the list; a withdrawn issuer's does not")
    func importAndVerify() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let list = try fixture.list(3, [fixture.service(fixture.issuerA),
                                        fixture.service(fixture.issuerB, status: LoTEBuilder.withdrawn, since: Self.time - Self.day)])
        let imported = try fixture.importList(list)
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.contains("imported 1 certificate(s) from LoTE MdocTesting Scheme Operator mDLProvidersListType sequence 3"))
        let trusted = try fixture.verifyMDL(fixture.issuerA)
        #expect(trusted.status == 0, "\(trusted.stdout)")
        #expect(trusted.stdout.contains("LoTE MdocTesting Scheme Operator"), "\(trusted.stdout)")
        let withdrawn = try fixture.verifyMDL(fixture.issuerB)
        #expect(withdrawn.status == 1 && withdrawn.stdout.contains("issuer.chain_untrusted"), "\(withdrawn.stdout)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.trust + "/manifest.json"))) as? [String: Any])
        #expect(manifest["highestSequenceNumber"] as? Int == 3 && manifest["provider"] == nil)
        let list2 = try MdocVerifyCLI.run(["trust", "list", "--trust", fixture.trust, "--at", Self.at])
        #expect(list2.stdout.contains("scope  \(DocType.mDL)") && list2.stdout.contains("source LoTE MdocTesting"), "\(list2.stdout)")
    }

    /// How a newer list stops listing the only mapped issuer.
    enum Departure: String, CaseIterable, Sendable { case withdrawn, removed }

    @Test("import: a newer list that withdraws the only mapped issuer, or from which its service is gone, is imported with no anchor, so that issuer stops being trusted",
          arguments: Departure.allCases)
    func issuerLeaves(_ departure: Departure) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(try fixture.importList(try fixture.list(3, [fixture.service(fixture.issuerA)])).status == 0)
        #expect(try fixture.verifyMDL(fixture.issuerA).status == 0)
        let services = departure == .withdrawn
            ? [fixture.service(fixture.issuerA, status: LoTEBuilder.withdrawn, since: Self.time - Self.day)] : []
        let imported = try fixture.importList(try fixture.list(4, services))
        #expect(imported.status == 0 && imported.stdout.contains("imported 0 certificate(s)"), "\(imported.stdout) \(imported.stderr)")
        // Only a list that no longer names any mapped service says that the earlier anchors went with it.
        #expect(imported.stdout.contains("anchors are removed") == (departure == .removed), "\(imported.stdout)")
        let refused = try fixture.verifyMDL(fixture.issuerA)
        #expect(refused.status == 1 && refused.stdout.contains("issuer.chain_untrusted"), "\(refused.stdout)")
    }

    @Test("import: mapped to another docType (wrong scope) an mDL is issuer.chain_untrusted; a map that anchors nothing is refused")
    func wrongScope() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let list = try fixture.list(3, [fixture.service(fixture.issuerA)])
        #expect(try fixture.importList(list, map: "\(LoTEBuilder.mdlIssuance)=eu.europa.ec.eudi.pid.1").status == 0)
        let refused = try fixture.verifyMDL(fixture.issuerA)
        #expect(refused.status == 1 && refused.stdout.contains("issuer.chain_untrusted") && refused.stdout.contains("may anchor only eu.europa.ec.eudi.pid.1"),
                "\(refused.stdout)")
        // A first import that would trust nothing is a usage mistake (a fresh folder); into the folder of an earlier
        // import the newer list replaces it, anchors and all (see removedService).
        let fresh = fixture.trust + "-fresh"
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let nothing = try MdocVerifyCLI.run(["trust", "lote", "import", list, "--root", fixture.root, "--out", fresh,
                                             "--doctype-map", "\(LoTEBuilder.pidIssuance)=eu.europa.ec.eudi.pid.1", "--at", Self.at])
        #expect(nothing.status == 2 && nothing.stderr.contains("no service of the list is mapped"), "\(nothing.stderr)")
        // Into the folder of an earlier import, a map that names none of the list's services removes that import's
        // anchors (the operator's map decides what is trusted) and says so.
        let emptied = try fixture.importList(try fixture.list(4, [fixture.service(fixture.issuerA)]),
                                             map: "\(LoTEBuilder.pidIssuance)=eu.europa.ec.eudi.pid.1")
        #expect(emptied.status == 0 && emptied.stdout.contains("imported 0 certificate(s)")
                && emptied.stdout.contains("the earlier import's anchors are removed"), "\(emptied.stdout) \(emptied.stderr)")
        let noMap = try MdocVerifyCLI.run(["trust", "lote", "import", list, "--root", fixture.root, "--out", fixture.trust])
        #expect(noMap.status == 2 && noMap.stderr.contains("--doctype-map"))
    }

    @Test("import: a lower sequence is lote.rollback unless --allow-rollback; the folder is swapped whole; stale, bad signature and another signer are refused")
    func rollbackAndRefusals() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(try fixture.importList(try fixture.list(7, [fixture.service(fixture.issuerA), fixture.service(fixture.issuerB)])).status == 0)
        let older = try fixture.list(6, [fixture.service(fixture.issuerB)])
        let refused = try fixture.importList(older)
        #expect(refused.status == 1 && refused.stdout.contains("REJECTED LoTE — lote.rollback") && refused.stdout.contains("--allow-rollback"),
                "\(refused.stdout)")
        #expect(try fixture.verifyMDL(fixture.issuerA).status == 0)
        #expect(try fixture.importList(older, ["--allow-rollback"]).status == 0)
        // The older list dropped issuer A: gone from the folder. The highest sequence is still remembered.
        #expect(try fixture.verifyMDL(fixture.issuerA).status == 1)
        #expect(try fixture.importList(older).status == 1)

        let stale = try fixture.list(8, [fixture.service(fixture.issuerA)], nextUpdate: Self.time - Self.day)
        let strict = try fixture.importList(stale, ["--profile", "strict"])
        #expect(strict.status == 1 && strict.stdout.contains("lote.stale"), "\(strict.stdout)")
        let warned = try fixture.importList(stale)
        #expect(warned.status == 0 && warned.stdout.contains("STALE since"), "\(warned.stdout)")

        var tampered = try Array(Data(contentsOf: URL(fileURLWithPath: try fixture.list(9, [fixture.service(fixture.issuerA)]))))
        tampered[tampered.count - 3] = tampered[tampered.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tamperedFile = fixture.folder.appendingPathComponent("tampered.jwt").path
        try Data(tampered).write(to: URL(fileURLWithPath: tamperedFile))
        let bad = try fixture.importList(tamperedFile)
        #expect(bad.status == 1 && bad.stdout.contains("lote.signature_invalid"), "\(bad.stdout)")
        let foreign = try fixture.importList(try fixture.list(10, [fixture.service(fixture.issuerA)], by: try LoTEBuilder(seed: 6, at: Self.time)))
        #expect(foreign.status == 1 && foreign.stdout.contains("lote.signer_untrusted"), "\(foreign.stdout)")
    }

    @Test("import refuses a folder holding a VICAL import, and trust lote is listed in help")
    func folderAndHelp() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.trust, withIntermediateDirectories: true)
        try Data("{\"provider\":\"AAMVA\",\"entries\":[]}".utf8).write(to: URL(fileURLWithPath: fixture.trust + "/manifest.json"))
        let run = try fixture.importList(try fixture.list(1, [fixture.service(fixture.issuerA)]))
        #expect(run.status == 2 && run.stderr.contains("holds another import (AAMVA)"), "\(run.stderr)")
        let help = try MdocVerifyCLI.run(["trust", "--help"])
        #expect(help.stdout.contains("lote"))
    }
}
