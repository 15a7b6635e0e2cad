import CryptoCore
import Foundation
import MdocTesting
import MdocTestingServer
import Synchronization
import Testing
import TestSupport
import VerifyServer

/// What only VICALs with a `url` do on the refresh path `TrustListRefreshTests` checks for both kinds, and the loop's
/// timer (issue 36, item 5).
@Suite("verify-server VICAL refresh")
struct VICALRefreshTests {
    @Test("VICAL only: a list without an issue ID after one with is vical.rollback; the trusted and refresh age gauges")
    func vicalOnly() async throws {
        try await RefreshedList.with(.vical) { list in
            try list.publish(6, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                try list.publishUnnumbered?([list.first, list.second])
                #expect(await server.app.refreshTrustLists() == [list.url: "vical.rollback"])
                #expect(!RefreshedList.trusts(server, list.second))
                let metrics = try await server.client.get("/metrics").text
                #expect(metrics.contains(#"verify_server_vical_refresh_age_seconds{provider="MdocTesting"}"#))
                #expect(metrics.contains(#"verify_server_vical_trusted{provider="MdocTesting"} 1"#))
            }
        }
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

    @Test("the loop waits the refresh interval varied by at most a tenth, in slices of at most five minutes, then refreshes")
    func loopUsesTheTimer() async throws {
        try await RefreshedList.with(.vical) { list in
            try list.publish(1, [list.first, list.second])
            let ticks = Ticks()
            try await ServerFixture.withServer(list.configuration(), hooks: ServerHooks(vicalRefreshWait: { try await ticks.wait($0) })) { server in
                try await ticks.waitForWaits(1)
                try list.publish(2, [list.first])
                // One slice passes: nothing is downloaded yet.
                ticks.release()
                try await ticks.waitForWaits(2)
                #expect(RefreshedList.trusts(server, list.second) && list.lists.requests() == 1)
                // The rest of the interval passes; the loop asks for its next wait once the refresh is done.
                let slices = Self.slices(of: 3960)
                for _ in 1..<slices { ticks.release() }
                try await ticks.waitForWaits(slices + 1)
                #expect(!RefreshedList.trusts(server, list.second))
                let waits = ticks.waits
                #expect(waits.allSatisfy { $0 <= .seconds(300) }, "\(waits)")
                // The first interval ends with the first slice shorter than five minutes.
                let end = try #require(waits.firstIndex { $0 < .seconds(300) }, "\(waits)")
                let interval = waits[...end].reduce(Duration.zero, +)
                #expect(interval >= .seconds(3240) && interval <= .seconds(3960), "\(waits)")
            }
        }
    }

    @Test("a list a reload dropped (its copy gone) is downloaded again after one slice, not after the whole interval")
    func droppedListRetriedSoon() async throws {
        try await RefreshedList.with(.vical) { list in
            try list.publish(1, [list.first])
            let ticks = Ticks()
            try await ServerFixture.withServer(list.configuration(), hooks: ServerHooks(vicalRefreshWait: { try await ticks.wait($0) })) { server in
                try await ticks.waitForWaits(1)
                for copy in try list.copies() { try FileManager.default.removeItem(at: copy) }
                #expect(server.app.reloadTrust(), "the reload goes on without the list")
                #expect(!RefreshedList.trusts(server, list.first))
                let reason = (try jsonObject(try await server.client.get("/readyz"))["untrustedLists"] as? [[String: Any]])?.first?["reason"]
                #expect(reason as? String == "no_copy")
                ticks.release()
                try await ticks.waitForWaits(2)
                #expect(RefreshedList.trusts(server, list.first), "one slice later the list is downloaded and trusted again")
                // One slice passed before that download (the start's download and this one), at most five minutes.
                #expect(ticks.waits.count == 2 && ticks.waits[0] <= .seconds(300) && list.lists.requests() == 2, "\(ticks.waits)")
            }
        }
    }

    /// How many slices of at most five minutes the longest interval can take.
    private static func slices(of seconds: Int) -> Int { (seconds + 299) / 300 }
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
