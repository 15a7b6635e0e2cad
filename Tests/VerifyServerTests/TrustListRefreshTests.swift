import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import MdocTestingServer
import Synchronization
import Testing
import TestSupport
import VerifyServer

/// A VICAL or a LoTE served on loopback by the kit, with what the tests of the one refresh path need whatever the kind:
/// publish the n-th list (issue or sequence), serve other bytes or an error, stop, count requests, tamper.
struct RefreshedList: Sendable {
    enum Kind: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case vical, lote

        var testDescription: String { rawValue }
    }

    static let time = VectorFiles.date("2026-06-01T12:00:00Z")
    static let mDL = "org.iso.18013.5.1.mDL"

    let kind: Kind
    let url: String
    let root: String
    let cache: String
    let first: TestPKI
    let second: TestPKI
    /// Publishes the list numbered `mark` naming `issuers`, valid until `nextUpdate` (30 days on by default).
    let publishList: @Sendable (_ mark: UInt64, _ issuers: [TestPKI], _ nextUpdate: Date?) throws -> [UInt8]
    /// Publishes a list numbered `mark` signed by an operator nobody pinned.
    let publishStranger: @Sendable (_ mark: UInt64, _ issuers: [TestPKI]) throws -> Void
    /// Publishes a list numbered `mark` under the pinned root but of another provider (VICAL) or list type (LoTE).
    let publishOtherOwner: @Sendable (_ mark: UInt64, _ issuers: [TestPKI]) throws -> Void
    /// Publishes a list without a number (a VICAL without vicalIssueID; nil for a LoTE, which always has one).
    var publishUnnumbered: (@Sendable (_ issuers: [TestPKI]) throws -> Void)?
    let lists: ListServerControls
    /// `bytes` with a signature that no longer verifies.
    let tamper: @Sendable ([UInt8]) -> [UInt8]

    /// What the server of either kind does besides publishing lists.
    struct ListServerControls: Sendable {
        let serve: @Sendable ([UInt8]) -> Void
        let fail: @Sendable (Int) -> Void
        let redirect: @Sendable (String) -> Void
        /// Serves bytes at another path of the same server; returns its URL.
        let serveAt: @Sendable (_ path: String, _ bytes: [UInt8]) -> String
        let stop: @Sendable () async -> Void
        let finish: @Sendable () async -> Void
        let requests: @Sendable () -> Int
    }

    /// `/readyz`'s key, the entry's number field, the copy's file ending and the failure counter with its label.
    var key: String { kind.rawValue + "s" }
    var markField: String { kind == .vical ? "vicalIssueID" : "sequenceNumber" }
    var copySuffix: String { kind == .vical ? ".cbor" : ".lote" }
    /// The key the store keeps the list's rollback mark under.
    var markKey: String { kind == .vical ? "MdocTesting" : "lote:MdocTesting Scheme Operator|\(LoTEBuilder.mdlListType)" }
    var failureMetric: String {
        kind == .vical ? #"verify_server_vical_refresh_failures_total{provider="MdocTesting"}"#
                       : #"verify_server_lote_refresh_failures_total{operator="MdocTesting Scheme Operator"}"#
    }

    @discardableResult
    func publish(_ mark: UInt64, _ issuers: [TestPKI], nextUpdate: Date? = nil) throws -> [UInt8] {
        try publishList(mark, issuers, nextUpdate)
    }

    static func controls<Builder: Sendable>(_ fixture: SignedListFixture<Builder>) -> ListServerControls {
        ListServerControls(serve: { fixture.lists.publish($0) }, fail: { fixture.lists.fail(status: $0) },
                           redirect: { fixture.lists.redirect(to: $0) },
                           serveAt: { path, bytes in
                               fixture.lists.server.publish(.list(bytes, contentType: fixture.lists.contentType), at: path)
                               return fixture.lists.server.url(path)
                           },
                           stop: { await fixture.lists.stop() },
                           finish: { await fixture.finish() }, requests: { fixture.lists.requests })
    }

    static func start(_ kind: Kind) async throws -> RefreshedList {
        switch kind {
        case .vical:
            let fixture = try await SignedListFixture.vical(seed: 9, issuers: (91, 92), at: time)
            let stranger = try VICALBuilder(seed: 10, at: time)
            return RefreshedList(kind: kind, url: fixture.lists.url, root: fixture.root, cache: fixture.cache, first: fixture.first,
                                 second: fixture.second, publishList: { try fixture.publish($0, $1, nextUpdate: $2) },
                                 publishStranger: { mark, issuers in
                                     fixture.lists.publish(try stranger.build(entries: issuers.map { .init($0.iaca, docTypes: [mDL]) }, issueID: mark,
                                                                              date: time, nextUpdate: time + 86_400))
                                 }, publishOtherOwner: { mark, issuers in
                                     try fixture.lists.publish(entries: issuers.map { .init($0.iaca, docTypes: [mDL]) }, issueID: mark, date: time,
                                                               nextUpdate: time + 86_400, provider: "Another Provider")
                                 }, publishUnnumbered: { _ = try fixture.publish(nil, $0) }, lists: controls(fixture),
                                 tamper: VICALServer.badSignature)
        case .lote:
            let fixture = try await SignedListFixture.lote(seed: 13, issuers: (93, 94), at: time)
            let stranger = try LoTEBuilder(seed: 14, at: time)
            return RefreshedList(kind: kind, url: fixture.lists.url, root: fixture.root, cache: fixture.cache, first: fixture.first,
                                 second: fixture.second, publishList: { try fixture.publish($0, $1, nextUpdate: $2) },
                                 publishStranger: { try fixture.publish($0, $1, by: stranger) },
                                 publishOtherOwner: { mark, issuers in
                                     try fixture.lists.publish(services: issuers.map { .init([$0.iaca], type: LoTEBuilder.mdlIssuance) }, sequenceNumber: mark,
                                                               issued: time - 3600, nextUpdate: time + 86_400, type: LoTEBuilder.pidListType)
                                 }, publishUnnumbered: nil, lists: controls(fixture),
                                 tamper: LoTEServer.tampered)
        }
    }

    /// Runs `body` on a started list of `kind`, and removes it whatever happens.
    static func with(_ kind: Kind, _ body: (RefreshedList) async throws -> Void) async throws {
        let list = try await start(kind)
        do {
            try await body(list)
        } catch {
            await list.lists.finish()
            throw error
        }
        await list.lists.finish()
    }

    /// The server's settings with this list (mapped to mDL for a LoTE), downloaded every hour.
    func configuration(allowLoopback: Bool = true, policy: VICALStalePolicy = .warn,
                       verificationTime: Date? = RefreshedList.time) -> ServerConfiguration {
        var configuration = AppleSample.configuration(verificationTime: verificationTime)
        switch kind {
        case .vical: configuration.vicals = [VICALSource(url: url, root: root, refresh: 3600)]
        case .lote:
            configuration.lotes = [LoTESource(url: url, root: root, serviceTypes: [LoTEBuilder.mdlIssuance], docTypes: [Self.mDL], refresh: 3600)]
        }
        configuration.vicalCacheDirectory = cache
        configuration.vicalStalePolicy = policy
        if allowLoopback { configuration.revocationFetchAllow = ["127.0.0.1"] }
        return configuration
    }

    /// The last good copies in the cache.
    func copies() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(copySuffix) }
            .map { URL(fileURLWithPath: cache).appendingPathComponent($0) }
    }

    static func trusts(_ server: RunningServer, _ issuer: TestPKI) -> Bool {
        server.app.runtime.trustStore.anchors.contains { $0.sha256Fingerprint == issuer.iaca.sha256Fingerprint }
    }

    /// This list's entry on `/readyz`.
    func readiness(_ server: RunningServer) async throws -> [String: Any] {
        let body = try jsonObject(try await server.client.get("/readyz"))
        return try #require((body[key] as? [[String: Any]])?.first, "\(body)")
    }

    /// What a list server can do wrong, and the category each failure is reported under.
    func faults() -> [(String, @Sendable () async throws -> Void)] {
        let code = { (name: String) in "\(kind.rawValue).\(name)" }
        return [
            (code("rollback"), { try publish(5, [first, second]) }),
            (code("signature_invalid"), { lists.serve(tamper(try publish(7, [second]))) }),
            (code("signer_untrusted"), { try publishStranger(8, [second]) }),
            (code("malformed"), { lists.serve(Array("not a list".utf8)) }),
            ("provider_changed", { try publishOtherOwner(9, [second]) }),
            ("too_large", { lists.serve([UInt8](repeating: 0, count: 17 << 20)) }),
            ("refused_destination", { lists.redirect("http://10.1.2.3/list") }),
            ("refused_destination", { lists.redirect("file:///etc/passwd") }),
            ("unreachable", { lists.fail(503) }),
            ("unreachable", { await lists.stop() }),
        ]
    }
}

/// `vicals` and `lotes` entries with a `url`: one refresh path for both kinds downloads the list the kit serves on
/// loopback, verifies it, refuses a rollback, swaps the trust whole, keeps the last good list (in memory and in
/// `vicalCacheDirectory`) when a refresh fails, and says so on /readyz and /metrics; `vicalStalePolicy` decides what a
/// stale list does (issue 36, item 5; issue 39, item 2).
@Suite("verify-server trust list refresh (VICAL and LoTE)")
struct TrustListRefreshTests {
    typealias Kind = RefreshedList.Kind

    @Test("a newer list is picked up on refresh and an anchor it dropped stops being trusted; /readyz names the source and the refresh",
          arguments: Kind.allCases)
    func newerList(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(5, [list.first, list.second])
            try await ServerFixture.withServer(list.configuration()) { server in
                #expect(RefreshedList.trusts(server, list.first) && RefreshedList.trusts(server, list.second))
                var entry = try await list.readiness(server)
                #expect(entry[list.markField] as? Int == 5)
                #expect(entry["source"] as? String == list.url)
                #expect(entry["lastRefresh"] is String)
                #expect(entry["lastError"] is NSNull)
                #expect(entry["trusted"] as? Bool == true)

                let newer = try list.publish(6, [list.first])
                #expect(await server.app.refreshTrustLists().isEmpty)
                #expect(RefreshedList.trusts(server, list.first))
                #expect(!RefreshedList.trusts(server, list.second))
                entry = try await list.readiness(server)
                #expect(entry[list.markField] as? Int == 6)
                // The last good copy is on disk, as downloaded.
                let copies = try list.copies()
                #expect(copies.count == 1)
                #expect([UInt8](try Data(contentsOf: try #require(copies.first))) == newer)
                // The same list again changes nothing and is no failure.
                #expect(await server.app.refreshTrustLists().isEmpty)
            }
        }
    }

    @Test("rollback, a bad signature, another root's list, not a list, another provider's list, 17 MB, redirects to a private address or another scheme, 503 and a server that is down each keep the last good list, with a warning on /readyz and a failure metric",
          arguments: Kind.allCases)
    func failuresKeepTheLastGoodList(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(6, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                for (count, (category, serve)) in list.faults().enumerated() {
                    try await serve()
                    let failures = await server.app.refreshTrustLists()
                    #expect(failures == [list.url: category])
                    #expect(RefreshedList.trusts(server, list.first), "\(category)")
                    #expect(!RefreshedList.trusts(server, list.second), "\(category)")
                    let response = try await server.client.get("/readyz")
                    #expect(response.status == 200, "a failing refresh is a warning, not a reason to be not ready")
                    let entry = try #require((try jsonObject(response)[list.key] as? [[String: Any]])?.first)
                    #expect(entry[list.markField] as? Int == 6)
                    #expect(entry["lastError"] as? String == category)
                    #expect((entry["warning"] as? String)?.contains("refresh failing since") == true)
                    #expect((entry["warning"] as? String)?.contains("\(count + 1) attempt(s)") == true)
                    let metrics = try await server.client.get("/metrics").text
                    #expect(metrics.contains("\(list.failureMetric) \(count + 1)"), "\(category)")
                }
                let family = list.failureMetric.prefix { $0 != "{" }
                let metrics = try await server.client.get("/metrics").text
                #expect(metrics.contains("# HELP \(family) "))
                #expect(metrics.contains("# TYPE \(family) counter"))
            }
        }
    }

    @Test("a restart serves the last good copy when the list server is down; a tampered or missing copy refuses the start, saying why",
          arguments: Kind.allCases)
    func restartFromTheCopy(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(3, [list.first])
            let downloaded = Mutex<String?>(nil)
            try await ServerFixture.withServer(list.configuration()) { server in
                #expect(RefreshedList.trusts(server, list.first))
                let last = try await list.readiness(server)["lastRefresh"] as? String
                downloaded.withLock { $0 = last }
            }
            let firstRefresh = downloaded.withLock { $0 }
            #expect(firstRefresh != nil)
            await list.lists.stop()
            try await ServerFixture.withServer(list.configuration()) { server in
                #expect(RefreshedList.trusts(server, list.first))
                let entry = try await list.readiness(server)
                #expect(entry[list.markField] as? Int == 3)
                #expect(entry["lastError"] as? String == "unreachable")
                // Served from the copy: lastRefresh is when that copy was downloaded (the file's time, to the
                // millisecond), not null.
                let served = try #require((entry["lastRefresh"] as? String).flatMap(RFC3339.parseDateTime), "\(entry)")
                let downloaded = try #require(firstRefresh.flatMap(RFC3339.parseDateTime))
                #expect(abs(served.timeIntervalSince(downloaded)) < 0.001, "\(entry)")
            }
            // A copy changed on disk is verified like a download: a broken signature is no usable copy.
            let copy = try #require(try list.copies().first)
            try Data(list.tamper([UInt8](try Data(contentsOf: copy)))).write(to: copy)
            for removed in [false, true] {
                if removed { try FileManager.default.removeItem(atPath: list.cache) }
                do {
                    try await ServerFixture.withServer(list.configuration()) { _ in }
                    Issue.record("the start should be refused without a usable copy")
                } catch {
                    let text = String(describing: error)
                    #expect(text.contains("\(kind.rawValue) \(list.url): the download failed (unreachable"), "\(text)")
                    #expect(text.contains("does not start without it"), "\(text)")
                    if !removed { #expect(text.contains("\(kind.rawValue).signature_invalid"), "\(text)") }
                }
            }
        }
    }

    @Test("a URL on a loopback address is refused unless revocationFetchAllow names it; nothing reaches the address", arguments: Kind.allCases)
    func privateDestinationRefused(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(1, [list.first])
            do {
                try await ServerFixture.withServer(list.configuration(allowLoopback: false)) { _ in }
                Issue.record("the start should be refused")
            } catch {
                #expect(String(describing: error).contains("refused_destination"), "\(error)")
            }
            #expect(list.lists.requests() == 0, "refused before any request reached the address")
            try await ServerFixture.withServer(list.configuration(allowLoopback: true)) { server in
                #expect(RefreshedList.trusts(server, list.first))
            }
        }
    }

    @Test("a stale list: warn keeps its anchors with a warning; refuse drops them and /readyz says why; a current download brings them back",
          arguments: Kind.allCases)
    func stalePolicy(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(2, [list.first], nextUpdate: RefreshedList.time - 3600)
            try await ServerFixture.withServer(list.configuration(policy: .warn)) { server in
                #expect(RefreshedList.trusts(server, list.first))
                let entry = try await list.readiness(server)
                #expect(entry["stale"] as? Bool == true && entry["trusted"] as? Bool == true)
                #expect((entry["warning"] as? String)?.contains("vicalStalePolicy warn") == true)
            }
            try await ServerFixture.withServer(list.configuration(policy: .refuse)) { server in
                #expect(!RefreshedList.trusts(server, list.first))
                let entry = try await list.readiness(server)
                #expect(entry["stale"] as? Bool == true && entry["trusted"] as? Bool == false)
                #expect((entry["warning"] as? String)?.contains("not trusted (vicalStalePolicy refuse)") == true)
                try list.publish(3, [list.first])
                #expect(await server.app.refreshTrustLists().isEmpty)
                #expect(RefreshedList.trusts(server, list.first))
            }
        }
    }

    @Test("refuse: a list that passes its nextUpdate while in use stops anchoring at the next check (the clock is the test's)",
          arguments: Kind.allCases)
    func becomesStale(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            let clock = TestClock(RefreshedList.time)
            try list.publish(4, [list.first], nextUpdate: RefreshedList.time + 86_400)
            try await ServerFixture.withServer(list.configuration(policy: .refuse, verificationTime: nil), clock: clock) { server in
                #expect(RefreshedList.trusts(server, list.first))
                clock.advance(by: 2 * 86_400)
                // The list server still has the same list: the refresh changes nothing, the staleness check does.
                #expect(await server.app.refreshTrustLists().isEmpty)
                #expect(!RefreshedList.trusts(server, list.first))
                let entry = try await list.readiness(server)
                #expect(entry["trusted"] as? Bool == false)
            }
        }
    }

    @Test("the operator rotates the pinned root: the reload drops the list the new root does not vouch for (listed on /readyz); putting the root back brings it back",
          arguments: Kind.allCases)
    func rootRotatedOnReload(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(2, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                #expect(RefreshedList.trusts(server, list.first))
                let family = "verify_server_\(kind.rawValue)_trusted{"
                #expect(try await server.client.get("/metrics").text.contains(family))
                let original = try Data(contentsOf: URL(fileURLWithPath: list.root))
                try PEMText.certificate(try TestPKI(seed: 77, at: RefreshedList.time).iaca).write(toFile: list.root, atomically: true, encoding: .utf8)
                #expect(server.app.reloadTrust(), "the reload goes on without the list")
                #expect(!RefreshedList.trusts(server, list.first))
                let body = try jsonObject(try await server.client.get("/readyz"))
                let untrusted = try #require(body["untrustedLists"] as? [[String: Any]], "\(body)")
                #expect(untrusted.count == 1 && untrusted.first?["kind"] as? String == kind.rawValue, "\(untrusted)")
                // The reason is the copy's error code: no cache path reaches the unauthenticated probe.
                #expect(untrusted.first?["reason"] as? String == "\(kind.rawValue).signer_untrusted", "\(untrusted)")
                // /metrics no longer reports the dropped list (its gauges are removed), and counts it as untrusted.
                let metrics = try await server.client.get("/metrics").text
                #expect(!metrics.contains(family) && metrics.contains("verify_server_untrusted_lists 1"), "\(metrics)")
                // The list server still serves the list the old root signed: the download does not verify either.
                #expect(await server.app.refreshTrustLists() == [list.url: "\(kind.rawValue).signer_untrusted"])
                #expect(!RefreshedList.trusts(server, list.first))
                try original.write(to: URL(fileURLWithPath: list.root))
                #expect(server.app.reloadTrust())
                #expect(RefreshedList.trusts(server, list.first))
                #expect((try jsonObject(try await server.client.get("/readyz"))["untrustedLists"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test("a pinned root that cannot be read fails the refresh as root_unreadable, on /readyz too; the reload it tries fails and says why",
          arguments: Kind.allCases)
    func rootUnreadable(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(2, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                try FileManager.default.removeItem(atPath: list.root)
                #expect(await server.app.refreshTrustLists() == [list.url: "root_unreadable"])
                let entry = try await list.readiness(server)
                #expect(entry["lastError"] as? String == "root_unreadable", "\(entry)")
                let body = try jsonObject(try await server.client.get("/readyz"))
                #expect((body["trustReloadError"] as? String)?.contains(list.root) == true, "\(body)")
            }
        }
    }

    @Test("a rotated root seen first by a refresh: the unchanged list in use is verified again and dropped", arguments: Kind.allCases)
    func rootRotatedOnRefresh(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(2, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                #expect(RefreshedList.trusts(server, list.first))
                try PEMText.certificate(try TestPKI(seed: 78, at: RefreshedList.time).iaca).write(toFile: list.root, atomically: true, encoding: .utf8)
                #expect(await server.app.refreshTrustLists() == [list.url: "\(kind.rawValue).signer_untrusted"])
                #expect(!RefreshedList.trusts(server, list.first))
            }
        }
    }

    @Test("a redirect to the list on an allowed address is followed", arguments: Kind.allCases)
    func redirectFollowed(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(2, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                let moved = list.lists.serveAt("/moved", try list.publish(3, [list.second]))
                list.lists.redirect(moved)
                #expect(await server.app.refreshTrustLists().isEmpty)
                #expect(RefreshedList.trusts(server, list.second) && !RefreshedList.trusts(server, list.first))
            }
        }
    }

    @Test("an older list is refused against the store's mark, which another instance may have raised", arguments: Kind.allCases)
    func rollbackAgainstTheStoresMark(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            try list.publish(5, [list.first])
            try await ServerFixture.withServer(list.configuration()) { server in
                // The accepted mark reaches the store just after the start.
                #expect(try await server.storedMark(list.markKey, reaching: 5) == 5)
                // Another instance on the same store accepted number 9.
                try await server.store.recordVICALIssueID(provider: list.markKey, issueID: 9)
                try list.publish(8, [list.first, list.second])
                #expect(await server.app.refreshTrustLists() == [list.url: "\(kind.rawValue).rollback"])
                #expect(!RefreshedList.trusts(server, list.second))
                try list.publish(10, [list.first, list.second])
                #expect(await server.app.refreshTrustLists().isEmpty)
                #expect(RefreshedList.trusts(server, list.second))
            }
        }
    }

    @Test("--check-config --connect: a list that verifies passes; a refused destination and a bad signature are one line each; nothing is written",
          arguments: Kind.allCases)
    func check(_ kind: Kind) async throws {
        try await RefreshedList.with(kind) { list in
            let bytes = try list.publish(1, [list.first])
            let checked = await list.configuration().checkTrustLists()
            #expect(checked.problems.isEmpty)
            // Each list that verified is named with what it is (kit VICAL: issue 1; kit LoTE: sequence 1).
            #expect(checked.fetched.count == 1 && checked.fetched[0].hasPrefix("\(kind.rawValue) \(list.url): downloaded and verified: "), "\(checked.fetched)")
            #expect(checked.fetched.first?.contains(kind == .vical ? "issue 1," : "sequence 1,") == true, "\(checked.fetched)")
            #expect(!FileManager.default.fileExists(atPath: list.cache))
            let refused = await list.configuration(allowLoopback: false).checkTrustLists().problems
            #expect(refused.count == 1 && refused[0].contains("\(kind.rawValue) \(list.url): the download failed (refused_destination)"), "\(refused)")
            list.lists.serve(list.tamper(bytes))
            let bad = await list.configuration().checkTrustLists().problems
            #expect(bad.count == 1 && bad[0].contains("\(kind.rawValue).signature_invalid"), "\(bad)")
        }
    }
}
