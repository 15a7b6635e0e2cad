import CryptoCore
import Foundation
import MdocTesting
import MdocTestingServer
import Synchronization
import Testing
import TestSupport
import VerifyServer

/// `vicals: [{url, root, refresh}]`: the server downloads the VICAL the kit serves on loopback, verifies it, refuses a
/// rollback, swaps the trust whole, keeps the last good list (in memory and in `vicalCacheDirectory`) when a refresh
/// fails, and says so on /readyz and /metrics; `vicalStalePolicy` decides what a stale list does (issue 36, item 5).
@Suite("verify-server VICAL refresh")
struct VICALRefreshTests {
    static let time = VectorFiles.date("2026-06-01T12:00:00Z")
    static let mDL = ["org.iso.18013.5.1.mDL"]

    /// The kit's list server, two issuers' IACAs and a folder for the root and the cache.
    struct Setup: Sendable {
        let folder: URL
        let lists: VICALServer
        let first: TestPKI
        let second: TestPKI

        static func start() async throws -> Setup {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vical-refresh-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let lists = try await VICALServer.start(builder: try VICALBuilder(seed: 9, at: VICALRefreshTests.time))
            try Data(PEMText.certificate(lists.builder.root).utf8).write(to: folder.appendingPathComponent("root.pem"))
            return Setup(folder: folder, lists: lists, first: try TestPKI(seed: 91, at: VICALRefreshTests.time),
                         second: try TestPKI(seed: 92, at: VICALRefreshTests.time))
        }

        func finish() async {
            await lists.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        var cache: String { folder.appendingPathComponent("cache").path }

        /// Publishes issue `id` listing `issuers`, valid until `nextUpdate` (30 days after the test time by default).
        @discardableResult
        func publish(_ id: UInt64?, _ issuers: [TestPKI], nextUpdate: Date = VICALRefreshTests.time + 86_400 * 30) throws -> [UInt8] {
            try lists.publish(entries: issuers.map { .init($0.iaca, docTypes: VICALRefreshTests.mDL) }, issueID: id,
                              date: VICALRefreshTests.time - 86_400, nextUpdate: nextUpdate)
        }

        func configuration(allowLoopback: Bool = true, policy: VICALStalePolicy = .warn,
                           verificationTime: Date? = VICALRefreshTests.time) -> ServerConfiguration {
            var configuration = AppleSample.configuration(verificationTime: verificationTime)
            configuration.vicals = [VICALSource(url: lists.url, root: folder.appendingPathComponent("root.pem").path, refresh: 3600)]
            configuration.vicalCacheDirectory = cache
            configuration.vicalStalePolicy = policy
            if allowLoopback { configuration.revocationFetchAllow = ["127.0.0.1"] }
            return configuration
        }
    }

    static func trusts(_ server: RunningServer, _ issuer: TestPKI) -> Bool {
        server.app.runtime.trustStore.anchors.contains { $0.sha256Fingerprint == issuer.iaca.sha256Fingerprint }
    }

    static func vical(_ server: RunningServer) async throws -> [String: Any] {
        let body = try jsonObject(try await server.client.get("/readyz"))
        return try #require((body["vicals"] as? [[String: Any]])?.first, "\(body)")
    }

    @Test("a newer list is picked up on refresh and an IACA it dropped stops being trusted; /readyz names the source and the refresh")
    func newerList() async throws {
        let setup = try await Setup.start()
        try setup.publish(5, [setup.first, setup.second])
        do {
            try await ServerFixture.withServer(setup.configuration()) { server in
                #expect(Self.trusts(server, setup.first) && Self.trusts(server, setup.second))
                var vical = try await Self.vical(server)
                #expect(vical["vicalIssueID"] as? Int == 5)
                #expect(vical["source"] as? String == setup.lists.url)
                #expect(vical["lastRefresh"] is String)
                #expect(vical["lastError"] is NSNull)
                #expect(vical["trusted"] as? Bool == true)

                let newer = try setup.publish(6, [setup.first])
                #expect(await server.app.refreshVICALs().isEmpty)
                #expect(Self.trusts(server, setup.first))
                #expect(!Self.trusts(server, setup.second))
                vical = try await Self.vical(server)
                #expect(vical["vicalIssueID"] as? Int == 6)
                #expect(vical["entries"] as? Int == 1)
                // The last good copy is on disk, as downloaded.
                let copies = try FileManager.default.contentsOfDirectory(atPath: setup.cache).filter { $0.hasSuffix(".cbor") }
                #expect(copies.count == 1)
                let copy = try Data(contentsOf: URL(fileURLWithPath: setup.cache).appendingPathComponent(copies[0]))
                #expect([UInt8](copy) == newer)
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    @Test("rollback, a bad signature, another root's list, a body over the size limit and a server that is down each keep the last good list, with a warning on /readyz and a failure metric")
    func failuresKeepTheLastGoodList() async throws {
        let setup = try await Setup.start()
        try setup.publish(6, [setup.first])
        do {
            try await ServerFixture.withServer(setup.configuration()) { server in
                let stranger = try VICALBuilder(seed: 10, at: Self.time)
                let cases: [(String, @Sendable () async throws -> Void)] = [
                    ("vical.rollback", { try setup.publish(5, [setup.first, setup.second]) }),
                    ("vical.rollback", { try setup.publish(nil, [setup.first, setup.second]) }),
                    ("vical.signature_invalid", { setup.lists.publish(VICALServer.badSignature(try setup.publish(7, [setup.second]))) }),
                    ("vical.signer_untrusted", {
                        setup.lists.publish(try stranger.build(entries: [.init(setup.second.iaca, docTypes: Self.mDL)], issueID: 8,
                                                               date: Self.time, nextUpdate: Self.time + 86_400))
                    }),
                    ("vical.malformed", { setup.lists.publish(Array("not a VICAL".utf8)) }),
                    ("too_large", { setup.lists.publishOversized(17 << 20) }),
                    ("unreachable", { setup.lists.fail(status: 503) }),
                    ("unreachable", { await setup.lists.stop() }),
                ]
                for (count, (category, serve)) in cases.enumerated() {
                    try await serve()
                    let failures = await server.app.refreshVICALs()
                    #expect(failures == [setup.lists.url: category])
                    #expect(Self.trusts(server, setup.first), "\(category)")
                    #expect(!Self.trusts(server, setup.second), "\(category)")
                    let response = try await server.client.get("/readyz")
                    #expect(response.status == 200, "a failing refresh is a warning, not a reason to be not ready")
                    let vical = try #require((try jsonObject(response)["vicals"] as? [[String: Any]])?.first)
                    #expect(vical["vicalIssueID"] as? Int == 6)
                    #expect(vical["lastError"] as? String == category)
                    #expect((vical["warning"] as? String)?.contains("refresh failing since") == true)
                    #expect((vical["warning"] as? String)?.contains("\(count + 1) attempt(s)") == true)
                    let metrics = try await server.client.get("/metrics").text
                    #expect(metrics.contains(#"verify_server_vical_refresh_failures_total{provider="MdocTesting"} \#(count + 1)"#))
                }
                let metrics = try await server.client.get("/metrics").text
                #expect(metrics.contains("# HELP verify_server_vical_refresh_failures_total "))
                #expect(metrics.contains("# TYPE verify_server_vical_refresh_failures_total counter"))
                #expect(metrics.contains(#"verify_server_vical_refresh_age_seconds{provider="MdocTesting"}"#))
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    @Test("a restart serves the last good copy when the list server is down; without a copy the start is refused, saying why")
    func restartFromTheCopy() async throws {
        let setup = try await Setup.start()
        try setup.publish(3, [setup.first])
        do {
            try await ServerFixture.withServer(setup.configuration()) { server in
                #expect(Self.trusts(server, setup.first))
            }
            await setup.lists.stop()
            try await ServerFixture.withServer(setup.configuration()) { server in
                #expect(Self.trusts(server, setup.first))
                let vical = try await Self.vical(server)
                #expect(vical["vicalIssueID"] as? Int == 3)
                #expect(vical["lastError"] as? String == "unreachable")
            }
            // A copy changed on disk is verified like a download: a broken signature is no usable copy.
            let copies = try FileManager.default.contentsOfDirectory(atPath: setup.cache).filter { $0.hasSuffix(".cbor") }
            let copy = URL(fileURLWithPath: setup.cache).appendingPathComponent(try #require(copies.first))
            try Data(VICALServer.badSignature([UInt8](try Data(contentsOf: copy)))).write(to: copy)
            for removed in [false, true] {
                if removed { try FileManager.default.removeItem(atPath: setup.cache) }
                do {
                    try await ServerFixture.withServer(setup.configuration()) { _ in }
                    Issue.record("the start should be refused without a usable copy")
                } catch {
                    let text = String(describing: error)
                    #expect(text.contains("the download failed (unreachable"), "\(text)")
                    #expect(text.contains("does not start without it"), "\(text)")
                    if !removed { #expect(text.contains("vical.signature_invalid"), "\(text)") }
                }
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    @Test("a URL on a loopback or private address is refused unless revocationFetchAllow names it")
    func privateDestinationRefused() async throws {
        let setup = try await Setup.start()
        try setup.publish(1, [setup.first])
        do {
            do {
                try await ServerFixture.withServer(setup.configuration(allowLoopback: false)) { _ in }
                Issue.record("the start should be refused")
            } catch {
                #expect(String(describing: error).contains("refused_destination"), "\(error)")
            }
            #expect(setup.lists.requests == 0, "refused before any request reached the address")
            try await ServerFixture.withServer(setup.configuration(allowLoopback: true)) { server in
                #expect(Self.trusts(server, setup.first))
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    @Test("a stale list: warn keeps its IACAs with a warning; refuse drops them and /readyz says why")
    func stalePolicy() async throws {
        let setup = try await Setup.start()
        try setup.publish(2, [setup.first], nextUpdate: Self.time - 3600)
        do {
            try await ServerFixture.withServer(setup.configuration(policy: .warn)) { server in
                #expect(Self.trusts(server, setup.first))
                let vical = try await Self.vical(server)
                #expect(vical["stale"] as? Bool == true)
                #expect(vical["trusted"] as? Bool == true)
                #expect((vical["warning"] as? String)?.contains("vicalStalePolicy warn") == true)
            }
            try await ServerFixture.withServer(setup.configuration(policy: .refuse)) { server in
                #expect(!Self.trusts(server, setup.first))
                let vical = try await Self.vical(server)
                #expect(vical["stale"] as? Bool == true)
                #expect(vical["trusted"] as? Bool == false)
                #expect((vical["warning"] as? String)?.contains("not trusted (vicalStalePolicy refuse)") == true)
                #expect(try await server.client.get("/metrics").text.contains(#"verify_server_vical_trusted{provider="MdocTesting"} 0"#))
                // A current list brings them back.
                try setup.publish(3, [setup.first])
                #expect(await server.app.refreshVICALs().isEmpty)
                #expect(Self.trusts(server, setup.first))
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    @Test("refuse: a list that passes its nextUpdate while in use stops anchoring at the next check (the clock is the test's)")
    func becomesStale() async throws {
        let setup = try await Setup.start()
        let clock = TestClock(Self.time)
        try setup.publish(4, [setup.first], nextUpdate: Self.time + 86_400)
        do {
            try await ServerFixture.withServer(setup.configuration(policy: .refuse, verificationTime: nil), clock: clock) { server in
                #expect(Self.trusts(server, setup.first))
                clock.advance(by: 2 * 86_400)
                // The list server still has the same issue: the refresh changes nothing, the staleness check does.
                #expect(await server.app.refreshVICALs().isEmpty)
                #expect(!Self.trusts(server, setup.first))
                let vical = try await Self.vical(server)
                #expect(vical["trusted"] as? Bool == false)
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    /// The refresh loop's timer: records each wait and returns when the test lets it.
    final class Ticks: Sendable {
        private let state = Mutex<(waits: [Duration], released: Int)>(([], 0))

        var waits: [Duration] { state.withLock { $0.waits } }

        func wait(_ duration: Duration) async throws {
            let index = state.withLock { state in
                state.waits.append(duration)
                return state.waits.count
            }
            while state.withLock({ $0.released < index }) {
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        func release() { state.withLock { $0.released += 1 } }

        /// Waits (bounded) until the loop has asked to wait `count` times.
        func waitForWaits(_ count: Int) async throws {
            for _ in 0..<2000 where waits.count < count { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("the loop waits the refresh interval varied by at most a tenth, then refreshes")
    func loopUsesTheTimer() async throws {
        let setup = try await Setup.start()
        try setup.publish(1, [setup.first, setup.second])
        let ticks = Ticks()
        do {
            try await ServerFixture.withServer(setup.configuration(), hooks: ServerHooks(vicalRefreshWait: { try await ticks.wait($0) })) { server in
                try await ticks.waitForWaits(1)
                try setup.publish(2, [setup.first])
                ticks.release()
                // The loop asks for its next wait once the refresh is done.
                try await ticks.waitForWaits(2)
                #expect(!Self.trusts(server, setup.second))
                let waits = ticks.waits
                #expect(waits.count >= 2)
                for wait in waits { #expect(wait >= .seconds(3240) && wait <= .seconds(3960), "\(wait)") }
            }
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }
}

/// `vicals` entries in a file and in the environment.
@Suite("verify-server VICAL sources configuration")
struct VICALSourceConfigurationTests {
    static func read(_ yaml: String, environment: [String: String] = [:]) throws -> (ServerConfiguration, [String]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vicals-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return ConfigurationLoader.read(file: file.path, environment: environment)
    }

    @Test("file and url entries, refresh and allowRollback; the environment's URL=ROOT splits at the URL's last '='")
    func entries() throws {
        let (configuration, problems) = try Self.read("""
            vicals:
              - {file: /etc/a.cbor, root: /etc/a.pem, allowRollback: true}
              - {url: "https://vical.example/list?key=1", root: /etc/b.pem, refresh: 600}
            vicalStalePolicy: refuse
            vicalCacheDirectory: /var/lib/verify-server/vicals
            """)
        #expect(problems.isEmpty)
        #expect(configuration.vicals.count == 2)
        #expect(configuration.vicals[0].file == "/etc/a.cbor" && configuration.vicals[0].allowRollback)
        #expect(configuration.vicals[1].url == "https://vical.example/list?key=1" && configuration.vicals[1].refresh == 600)
        #expect(configuration.vicalStalePolicy == .refuse)
        #expect(configuration.vicalCacheDirectory == "/var/lib/verify-server/vicals")
        #expect(configuration.problems.filter { $0.contains("vical") }.isEmpty)

        let (fromEnvironment, environmentProblems) = ConfigurationLoader.read(
            file: nil, environment: ["VERIFY_SERVER_VICALS": "https://vical.example/list?key=1=/etc/b.pem,/etc/a.cbor=/etc/a.pem"])
        #expect(environmentProblems.isEmpty)
        #expect(fromEnvironment.vicals.map(\.url) == ["https://vical.example/list?key=1", nil])
        #expect(fromEnvironment.vicals.map(\.root) == ["/etc/b.pem", "/etc/a.pem"])
    }

    @Test("an entry with both or neither of file and url, an unknown key, a non-http URL or a refresh out of range is a problem")
    func problems() throws {
        for (yaml, expected) in [
            ("- {file: a, url: 'https://x.example/v', root: r}", "not both"),
            ("- {root: r}", "needs `file` or `url`"),
            ("- {url: 'https://x.example/v', root: r, allowRollbak: true}", "allowRollbak"),
            ("- {file: a, root: r, refresh: 600}", "entries with a `url`"),
        ] {
            let (_, problems) = try Self.read("vicals:\n  " + yaml)
            #expect(problems.contains { $0.contains(expected) }, "\(yaml): \(problems)")
        }
        var configuration = AppleSample.configuration()
        configuration.vicals = [VICALSource(url: "ftp://x.example/v", root: "r"), VICALSource(url: "https://x.example/v", root: "r", refresh: 5)]
        #expect(configuration.problems.contains { $0.contains("is not an http or https URL") })
        #expect(configuration.problems.contains { $0.contains("refresh of https://x.example/v must be 60 to 86400 seconds") })
        configuration.vicalCacheDirectory = ""
        #expect(configuration.problems.contains { $0.contains("vicalCacheDirectory is empty") })
    }

    @Test("the URL /readyz and logs show has no user info or query")
    func redacted() async throws {
        var configuration = AppleSample.configuration()
        configuration.vicals = [VICALSource(url: "https://user:secret@x.example/v?token=abc", root: "r", refresh: 5)]
        let problems = configuration.problems.joined()
        #expect(!problems.contains("secret") && !problems.contains("abc"))
        #expect(problems.contains("https://x.example/v"))
    }
}

/// `ServerConfiguration.checkVICALSources()`: what `--check-config --connect` can report about VICAL URLs.
@Suite("verify-server VICAL source check")
struct VICALSourceCheckTests {
    @Test("a reachable list that verifies passes; a bad signature and a refused destination are one line each; nothing is written")
    func check() async throws {
        let setup = try await VICALRefreshTests.Setup.start()
        do {
            let bytes = try setup.publish(1, [setup.first])
            #expect(await setup.configuration().checkVICALSources().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: setup.cache))
            let refused = await setup.configuration(allowLoopback: false).checkVICALSources()
            #expect(refused.count == 1 && refused[0].contains("the download failed (refused_destination)"), "\(refused)")
            setup.lists.publish(VICALServer.badSignature(bytes))
            let bad = await setup.configuration().checkVICALSources()
            #expect(bad.count == 1 && bad[0].contains("vical.signature_invalid"), "\(bad)")
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }
}
