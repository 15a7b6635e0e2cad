import CryptoCore
import Foundation
import LoopbackClient
import Testing
import TestSupport
import MdocModel
import MdocTesting
import VerifyServer

/// `vicals: [{file, root}]`: verified at start, their IACAs trusted, their state on /readyz.
@Suite("verify-server VICALs")
struct VICALConfigurationTests {
    static let vical = VectorFiles.url("TestVectors/trust/aamva-vical.cbor").path
    static let root = VectorFiles.url("TestVectors/trust/aamva-dts-root-from-vical-x5chain.pem").path

    /// A VICAL that a test DTS (seed 4) signed, naming `iaca` for mDLs, written with its pinned root into a fresh folder.
    struct WrittenVICAL {
        let folder: URL
        var vical: URL { folder.appendingPathComponent("vical.cbor") }
        var root: URL { folder.appendingPathComponent("root.pem") }
        var source: VICALSource { VICALSource(file: vical.path, root: root.path) }
        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static func writeVICAL(naming iaca: Certificate, issueID: UInt64, provider: String, at time: Date,
                           nextUpdate: Date) throws -> WrittenVICAL {
        let written = WrittenVICAL(folder: FileManager.default.temporaryDirectory.appendingPathComponent("vical-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: written.folder, withIntermediateDirectories: true)
        let builder = try VICALBuilder(seed: 4, at: time)
        try Data(try builder.build(entries: [.init(iaca, docTypes: [DocType.mDL])], issueID: issueID, date: time - 3600,
                                   nextUpdate: nextUpdate, provider: provider)).write(to: written.vical)
        try PEMText.certificate(builder.root).write(to: written.root, atomically: true, encoding: .utf8)
        return written
    }

    @Test("a configured VICAL adds its IACAs and is reported on /readyz (verified as of the pinned test time)")
    func loaded() async throws {
        var configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2025-08-05T21:00:00Z"))
        configuration.vicals = [VICALSource(file: Self.vical, root: Self.root)]
        try await ServerFixture.withServer(configuration) { server in
            let body = try jsonObject(try await server.client.get("/readyz"))
            #expect(body["trustAnchors"] as? Int == 14)
            let vicals = try #require(body["vicals"] as? [[String: Any]])
            #expect(vicals.first?["provider"] as? String == "AAMVA")
            #expect(vicals.first?["vicalIssueID"] as? Int == 89782)
            #expect(vicals.first?["stale"] as? Bool == false)
            let metrics = try await server.client.get("/metrics").text
            #expect(metrics.contains("verify_server_trust_anchors 14"))
            #expect(metrics.contains(#"verify_server_vical_issue_id{provider="AAMVA"} 89782"#))
            #expect(metrics.contains(#"verify_server_vical_stale{provider="AAMVA"} 0"#))
        }
    }

    @Test("a VICAL pinned to another root, or unreadable, refuses the start with one message each")
    func refused() throws {
        var configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2025-08-05T21:00:00Z"))
        configuration.vicals = [
            VICALSource(file: Self.vical, root: VectorFiles.url("TestVectors/trust/austroads-preproduction-dts-root.pem").path),
            VICALSource(file: "/nonexistent/vical.cbor", root: Self.root),
        ]
        #expect(throws: ConfigurationProblems.self) { try VerifierRuntime.load(configuration) }
        do {
            _ = try VerifierRuntime.load(configuration)
        } catch {
            #expect(error.problems.count == 2)
            #expect(error.problems.contains { $0.contains("vical.signer_untrusted") })
            #expect(error.problems.contains { $0.contains("cannot read the file") })
        }
    }

    @Test("a VICAL file larger than a list may be refuses the start as vical.malformed, read only up to the limit",
          .timeLimit(.minutes(1)))
    func oversizedFile() throws {
        // A file without end: a loader that read it whole would never return.
        var configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2025-08-05T21:00:00Z"))
        configuration.vicals = [VICALSource(file: "/dev/zero", root: Self.root)]
        do {
            _ = try VerifierRuntime.load(configuration)
            Issue.record("an oversized VICAL file was loaded")
        } catch {
            #expect(error.problems.count == 1 && error.problems.first?.contains("vical.malformed: the file is over") == true, "\(error.problems)")
        }
    }

    @Test("refuse: a VICAL that passes its nextUpdate while in use is refused at use, before any reload (here every reload fails)")
    func staleAtUse() async throws {
        let time = AppleSampleVector.validTime
        // The Apple sample's root is anchored by the VICAL only: the trust store holds another IACA.
        let written = try Self.writeVICAL(naming: try AppleSampleVector.root(), issueID: 1, provider: "Test", at: time, nextUpdate: time + 60)
        defer { written.remove() }
        let other = written.folder.appendingPathComponent("other.pem")
        try TestPKI(seed: 5, at: time).iacaPEM.write(to: other, atomically: true, encoding: .utf8)
        var configuration = AppleSample.configuration(verificationTime: nil)
        configuration.trustStorePaths = [other.path]
        configuration.vicals = [written.source]
        configuration.vicalStalePolicy = .refuse
        let clock = TestClock(time)
        try await ServerFixture.withServer(configuration, clock: clock) { server in
            func verify() async throws -> LoopbackHTTPClient.Response {
                let request = AppleSample.request()
                try await server.store.insert(request)
                return try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            }
            let verified = try await verify()
            #expect(verified.status == 200, "\(verified.text)")
            // The pinned root goes: every reload fails now and keeps the runtime, which still holds the list's anchors.
            try FileManager.default.removeItem(at: written.root)
            #expect(!server.app.reloadTrust())
            clock.advance(by: 120)
            let refused = try await verify()
            #expect(refused.status == 422 && refused.text.contains("vical.stale") && refused.text.contains("vicalStalePolicy refuse"),
                    "\(refused.text)")
            let entry = try #require((try jsonObject(try await server.client.get("/readyz"))["vicals"] as? [[String: Any]])?.first)
            #expect(entry["stale"] as? Bool == true && entry["trusted"] as? Bool == false, "\(entry)")
        }
    }

    @Test("a VICAL whose issue ID is past Int's range is served: /metrics clamps it rather than trapping")
    func hugeIssueID() async throws {
        let time = Date()
        let written = try Self.writeVICAL(naming: try TestPKI(seed: 5, at: time).iaca, issueID: .max, provider: "Huge", at: time,
                                          nextUpdate: time + 86_400)
        defer { written.remove() }
        var configuration = AppleSample.configuration(verificationTime: time)
        configuration.vicals = [written.source]
        try await ServerFixture.withServer(configuration) { server in
            let metrics = try await server.client.get("/metrics").text
            #expect(metrics.contains(#"verify_server_vical_issue_id{provider="Huge"} 9223372036854775807"#) || metrics.contains(#"verify_server_vical_issue_id{provider="Huge"} 9.22"#), "\(metrics)")
        }
    }

    @Test("a VICAL whose provider starts with lote: (the LoTE rollback marks' prefix in the store) is not loaded")
    func reservedProvider() throws {
        let time = Date()
        let written = try Self.writeVICAL(naming: try TestPKI(seed: 5, at: time).iaca, issueID: 1, provider: "lote:EU|mDL", at: time,
                                          nextUpdate: time + 86_400)
        defer { written.remove() }
        var configuration = AppleSample.configuration(verificationTime: time)
        configuration.vicals = [written.source]
        do {
            _ = try VerifierRuntime.load(configuration)
            Issue.record("a VICAL with a reserved provider name was loaded")
        } catch {
            #expect(error.problems.count == 1 && error.problems.first?.contains("vical.malformed") == true
                    && error.problems.first?.contains("LoTE rollback marks") == true, "\(error.problems)")
        }
    }
}

/// Reloading the trust (SIGHUP calls the same function): the new store is swapped in whole; a reload that fails keeps
/// the old one and says why on /readyz.
@Suite("verify-server trust reload")
struct TrustReloadTests {
    @Test("a new anchor file is picked up when the files change; a broken one keeps the previous trust (SIGHUP reload) and is reported")
    func reload() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try VectorFiles.text("TestVectors/apple/in-app-sample/issuer_root.crt")
            .write(to: folder.appendingPathComponent("apple-test-root.pem"), atomically: true, encoding: .utf8)
        var configuration = AppleSample.configuration()
        configuration.trustStorePaths = [folder.path]
        try await ServerFixture.withServer(configuration) { server in
            #expect(try jsonObject(try await server.client.get("/readyz"))["trustAnchors"] as? Int == 1)
            try VectorFiles.text("Certificates/test/iso18013-5-annex-d-utopia-iaca.pem")
                .write(to: folder.appendingPathComponent("utopia.pem"), atomically: true, encoding: .utf8)
            // The periodic check sees the new file and reloads (called here once instead of waiting for the interval).
            #expect(server.app.checkTrustFiles())
            #expect(!server.app.checkTrustFiles())
            #expect(try jsonObject(try await server.client.get("/readyz"))["trustAnchors"] as? Int == 2)
            // The sample still verifies after the swap.
            let request = AppleSample.request()
            try await server.store.insert(request)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id)).status == 200)

            try "not a certificate".write(to: folder.appendingPathComponent("broken.pem"), atomically: true, encoding: .utf8)
            #expect(!server.app.reloadTrust())
            let body = try jsonObject(try await server.client.get("/readyz"))
            #expect(body["trustAnchors"] as? Int == 2)
            #expect((body["trustReloadError"] as? String)?.contains("broken.pem") == true)
        }
    }
}
