import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport

/// What a VICAL import leaves trusted: an import replaces the previous one whole, a folder with a manifest anchors
/// exactly what it lists, one key has one scope, and an older list is a rollback (security round 3, items 1–3).
@Suite("VICAL import and trust folders")
struct VICALImportTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let at = RFC3339.format(time)
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("VICALImportTests")]))

    struct Fixture {
        let builder: VICALBuilder
        let issuerA: TestPKI
        let issuerB: TestPKI
        let folder: URL

        init() throws {
            builder = try VICALBuilder(seed: 5, at: VICALImportTests.time)
            issuerA = try TestPKI(seed: 61, at: VICALImportTests.time)
            issuerB = try TestPKI(seed: 62, at: VICALImportTests.time)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("vical-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(PEMText.certificate(builder.root).utf8).write(to: folder.appendingPathComponent("root.pem"))
        }

        var trust: String { folder.appendingPathComponent("trust").path }

        /// A list of issue `id` holding `entries`, written to a file; its path.
        func list(_ id: UInt64?, _ entries: [VICALBuilder.Entry], provider: String = "MdocTesting") throws -> String {
            let bytes = try builder.build(entries: entries, issueID: id, date: VICALImportTests.time.addingTimeInterval(-86_400),
                                          nextUpdate: VICALImportTests.time.addingTimeInterval(30 * 86_400), provider: provider)
            let path = folder.appendingPathComponent("vical-\(id.map(String.init) ?? "none")-\(UUID().uuidString).cbor").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        func importList(_ path: String, _ extra: [String] = []) throws -> MdocVerifyCLI.Run {
            try MdocVerifyCLI.run(["trust", "vical", "import", "--vical", path, "--root", folder.appendingPathComponent("root.pem").path,
                                   "--at", VICALImportTests.at, "--out", trust] + extra)
        }

        /// `mdocverify verify device-response` of an mDL signed under `pki`, against `trust`.
        func verifyMDL(_ pki: TestPKI, trust: [String]) throws -> MdocVerifyCLI.Run {
            let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(VICALImportTests.transcript),
                                                                options: SimulationOptions(time: VICALImportTests.time))
            let responseFile = try MdocVerifyCLITests.temporaryFile(response.bytes)
            let transcriptFile = try MdocVerifyCLITests.temporaryFile(VICALImportTests.transcript.bytes)
            return try MdocVerifyCLI.run(["verify", "device-response", "--device-response", responseFile, "--session-transcript", transcriptFile,
                                          "--at", VICALImportTests.at, "--revocation", "off"] + trust.flatMap { ["--trust", $0] })
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("re-importing a list that dropped an IACA removes it: the dropped issuer no longer verifies, and no file is left behind")
    func reimportDropsIACA() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let first = try fixture.list(1, [.init(fixture.issuerA.iaca, docTypes: ["org.iso.18013.5.1.mDL"]),
                                         .init(fixture.issuerB.iaca, docTypes: ["org.iso.18013.5.1.mDL"])])
        #expect(try fixture.importList(first).status == 0)
        #expect(try fixture.verifyMDL(fixture.issuerA, trust: [fixture.trust]).status == 0)

        let second = try fixture.list(2, [.init(fixture.issuerB.iaca, docTypes: ["org.iso.18013.5.1.mDL"])])
        let imported = try fixture.importList(second)
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let pems = try FileManager.default.contentsOfDirectory(atPath: fixture.trust).filter { $0.hasSuffix(".pem") }
        #expect(pems.count == 1, "\(pems)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        let rejected = try fixture.verifyMDL(fixture.issuerA, trust: [fixture.trust])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains("issuer.chain_untrusted"))
        #expect(try fixture.verifyMDL(fixture.issuerB, trust: [fixture.trust]).status == 0)
        let list = try MdocVerifyCLI.run(["trust", "list", "--trust", fixture.trust, "--at", Self.at])
        #expect(list.stdout.contains("1 anchor(s)") && !list.stdout.contains("any docType"), "\(list.stdout)")
    }

    @Test("a certificate file the manifest does not list, or a listed one that is missing, refuses the folder, naming it")
    func manifestListsExactly() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let list = try fixture.list(1, [.init(fixture.issuerB.iaca, docTypes: ["org.iso.23220.photoid.1"])])
        #expect(try fixture.importList(list).status == 0)
        // The same key as the scoped IACA, under a name that sorts first: it must not widen the scope.
        let stray = fixture.folder.appendingPathComponent("trust/00-stray.pem")
        try Data(fixture.issuerA.iacaPEM.utf8).write(to: stray)
        for command in [["trust", "list", "--trust", fixture.trust]] {
            let run = try MdocVerifyCLI.run(command)
            #expect(run.status == 2)
            #expect(run.stderr.contains("00-stray.pem") && run.stderr.contains("is not listed in"), "\(run.stderr)")
        }
        let refused = try fixture.verifyMDL(fixture.issuerA, trust: [fixture.trust])
        #expect(refused.status == 2 && refused.stderr.contains("00-stray.pem"))

        try FileManager.default.removeItem(at: stray)
        let listed = try FileManager.default.contentsOfDirectory(atPath: fixture.trust).first { $0.hasSuffix(".pem") } ?? ""
        try FileManager.default.removeItem(atPath: fixture.trust + "/" + listed)
        let missing = try MdocVerifyCLI.run(["trust", "list", "--trust", fixture.trust])
        #expect(missing.status == 2 && missing.stderr.contains("which no file in the folder holds"), "\(missing.stderr)")
    }

    @Test("the same key with two scopes (a scoped import and an unscoped copy elsewhere) is a load error")
    func oneScopePerKey() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let list = try fixture.list(1, [.init(fixture.issuerA.iaca, docTypes: ["org.iso.23220.photoid.1"])])
        #expect(try fixture.importList(list).status == 0)
        let loose = fixture.folder.appendingPathComponent("loose-iaca.pem")
        try Data(fixture.issuerA.iacaPEM.utf8).write(to: loose)
        let run = try fixture.verifyMDL(fixture.issuerA, trust: [fixture.trust, loose.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("same public key") && run.stderr.contains("org.iso.23220.photoid.1; any docType"), "\(run.stderr)")
        // Scoped alone, the photo-ID IACA does not anchor an mDL.
        let scoped = try fixture.verifyMDL(fixture.issuerA, trust: [fixture.trust])
        #expect(scoped.status == 1 && scoped.stdout.contains("may anchor only org.iso.23220.photoid.1"))
    }

    @Test("a folder holding a LoTE import is refused, naming it: its sequence mark is not a VICAL's")
    func loteFolderRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.trust, withIntermediateDirectories: true)
        try Data(#"{"list":"ETSI TS 119 602 LoTE","highestSequenceNumber":9,"entries":[]}"#.utf8)
            .write(to: URL(fileURLWithPath: fixture.trust + "/manifest.json"))
        let entries: [VICALBuilder.Entry] = [.init(fixture.issuerA.iaca, docTypes: ["org.iso.18013.5.1.mDL"])]
        let run = try fixture.importList(try fixture.list(7, entries))
        #expect(run.status == 2 && run.stderr.contains("holds another import (ETSI TS 119 602 LoTE)"), "\(run.stderr)")
    }

    @Test("an older list, or one without an issue ID after one with, is vical.rollback unless --allow-rollback; another provider is refused")
    func rollback() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let entries: [VICALBuilder.Entry] = [.init(fixture.issuerA.iaca, docTypes: ["org.iso.18013.5.1.mDL"])]
        #expect(try fixture.importList(try fixture.list(7, entries)).status == 0)
        let older = try fixture.list(6, entries)
        let refused = try fixture.importList(older)
        #expect(refused.status == 1 && refused.stdout.contains("vical.rollback") && refused.stdout.contains("--allow-rollback"))
        let unnumbered = try fixture.importList(try fixture.list(nil, entries))
        #expect(unnumbered.status == 1 && unnumbered.stdout.contains("vical.rollback") && unnumbered.stdout.contains("no vicalIssueID"))

        #expect(try fixture.importList(older, ["--allow-rollback"]).status == 0)
        // The highest issue ever accepted is still remembered: issue 6 again needs the flag.
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.trust + "/manifest.json"))) as? [String: Any])
        #expect(manifest["highestIssueID"] as? Int == 7 && manifest["vicalIssueID"] as? Int == 6)
        #expect(try fixture.importList(older).status == 1)
        #expect(try fixture.importList(try fixture.list(8, entries)).status == 0)

        // Another provider's list is a usage problem whatever its issue ID: the folder's list is judged first, as the
        // server judges it, so a lower ID is not reported as this provider's rollback.
        for issue: UInt64 in [9, 2] {
            let other = try fixture.importList(try fixture.list(issue, entries, provider: "Another operator"))
            #expect(other.status == 2 && other.stderr.contains("import each provider into its own folder"), "\(other.stderr)")
        }
    }
}
