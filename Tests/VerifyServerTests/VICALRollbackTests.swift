import Foundation
import MdocTesting
import Testing
import TestSupport
import VerifyServer

/// A VICAL replaced by an older, genuinely signed issue is refused on reload and on restart (the highest accepted issue
/// ID lives in the store), unless the entry says `allowRollback` (security round 3, item 2).
@Suite("verify-server VICAL rollback")
struct VICALRollbackTests {
    static let time = VectorFiles.date("2026-06-01T12:00:00Z")

    struct Lists {
        let folder: URL
        let builder: VICALBuilder
        let issuer: TestPKI

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("vical-rollback-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            builder = try VICALBuilder(seed: 9, at: VICALRollbackTests.time)
            issuer = try TestPKI(seed: 91, at: VICALRollbackTests.time)
            try Data(PEMText.certificate(builder.root).utf8).write(to: folder.appendingPathComponent("root.pem"))
        }

        var vical: String { folder.appendingPathComponent("list.cbor").path }
        var store: StoreLocation { .sqlite(path: folder.appendingPathComponent("store.sqlite").path) }

        /// Writes issue `id` (nil: none) of the list over the configured file.
        func write(_ id: UInt64?) throws {
            let bytes = try builder.build(entries: [.init(issuer.iaca, docTypes: ["org.iso.18013.5.1.mDL"])], issueID: id,
                                          date: VICALRollbackTests.time - 86_400, nextUpdate: VICALRollbackTests.time + 86_400 * 30)
            try Data(bytes).write(to: URL(fileURLWithPath: vical))
        }

        func configuration(allowRollback: Bool = false) -> ServerConfiguration {
            var configuration = AppleSample.configuration(verificationTime: VICALRollbackTests.time)
            var source = VICALSource(file: vical, root: folder.appendingPathComponent("root.pem").path)
            source.allowRollback = allowRollback
            configuration.vicals = [source]
            configuration.store = store
            return configuration
        }
    }

    static func issueID(_ server: RunningServer) async throws -> Int? {
        let body = try jsonObject(try await server.client.get("/readyz"))
        return (body["vicals"] as? [[String: Any]])?.first?["vicalIssueID"] as? Int
    }

    @Test("reload with an older issue or none keeps the current trust and says vical.rollback; a restart with it is refused; allowRollback accepts it")
    func rollback() async throws {
        let lists = try Lists()
        defer { try? FileManager.default.removeItem(at: lists.folder) }
        try lists.write(5)
        try await ServerFixture.withServer(lists.configuration()) { server in
            #expect(try await Self.issueID(server) == 5)
            for older in [UInt64?.some(4), nil] {
                try lists.write(older)
                #expect(!server.app.reloadTrust())
                let body = try jsonObject(try await server.client.get("/readyz"))
                #expect((body["trustReloadError"] as? String)?.contains("vical.rollback") == true, "\(body)")
                #expect(try await Self.issueID(server) == 5)
            }
            try lists.write(6)
            #expect(server.app.reloadTrust())
            #expect(try await Self.issueID(server) == 6)
            // The accepted issue reaches the store just after the reload.
            #expect(try await server.storedMark("MdocTesting", reaching: 6) == 6)
            #expect(try await server.store.vicalIssueIDs() == ["MdocTesting": 6])
        }
        // The store remembers 6: a restart on issue 5 is refused.
        try lists.write(5)
        await #expect(throws: (any Error).self) {
            try await ServerFixture.withServer(lists.configuration()) { _ in }
        }
        try await ServerFixture.withServer(lists.configuration(allowRollback: true)) { server in
            let issue = try await Self.issueID(server)
            #expect(issue == 5)
        }
        // Rolling back on purpose does not lower what was accepted: without the flag, 5 is still refused.
        await #expect(throws: (any Error).self) {
            try await ServerFixture.withServer(lists.configuration()) { _ in }
        }
    }
}
