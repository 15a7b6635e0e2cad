import Foundation
import LoopbackClient
import Mdoc
import MdocModel
import MdocTrust
import TestSupport
import MdocTesting
import MdocTestingServer
import Testing
import Verifier
import VerifyServer

/// verify-server fetching the status list and CRL a response names from the kit's loopback list server: the
/// revocation faults whose material comes over the fetch path, the list state on /readyz and /metrics, and a list
/// server that is down.
@Suite("verify-server revocation fetching")
struct RevocationFetchServerTests {
    static let time = VectorFiles.date("2026-06-01T12:00:00Z")

    /// A wallet whose responses name `server`, and a configuration that fetches (CRLs too) under `policy`.
    static func setUp(_ server: RevocationListServer, faults: [Fault], policy: RevocationPolicy) throws
        -> (SimulatedWallet, ServerConfiguration) {
        var wallet = try SimulatedWallet(time: time)
        wallet.listServer = server
        server.publish(try wallet.revocationMaterial(faults: faults))
        var configuration = wallet.configuration(testMode: true, pinnedTime: true)
        configuration.revocationFetch = true
        configuration.revocationFetchAllow = ["127.0.0.1"]  // the kit's list server is on loopback
        configuration.crlDistributionPoints = true
        configuration.revocationFetchTimeout = 1
        configuration.revocation = policy
        return (wallet, configuration)
    }

    static func verify(_ wallet: SimulatedWallet, on server: RunningServer, faults: [Fault]) async throws -> LoopbackHTTPClient.Response {
        let (id, body) = try SimulatedWalletTests.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("apple-app")))
        let response = try wallet.appleResponse(nonce: try #require(body["nonce"] as? String), faults: faults)
        return try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
    }

    /// The revocation faults whose material the fetch path must carry to the checks: the CRL, the status list, the
    /// identifier list beside it, a token naming another list than the one fetched, and a token from an untrusted
    /// signer. `FaultTableTests` asserts every revocation fault's code at the library, with the material handed in.
    static let fetchedFaults: [Fault] = [.documentSignerRevoked, .statusRevoked, .identifierListRevoked, .statusListSubMismatch,
                                         .statusListUntrusted]

    @Test("revocation faults give their code over HTTP with the lists fetched from loopback (CRL, status list, identifier list)",
          arguments: fetchedFaults)
    func faults(fault: Fault) async throws {
        let lists = try await RevocationListServer.start()
        let (wallet, configuration) = try Self.setUp(lists, faults: [fault], policy: .hard)
        defer { wallet.remove() }
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let answer = try await Self.verify(wallet, on: server, faults: [fault])
            #expect(answer.status == 422, "\(fault.name): \(answer.text)")
            let code = try #require(fault.expectedCode(format: .appleApp))
            #expect(try errorCodes(answer) == [code.rawValue], "\(fault.name)")
        }
        #expect(lists.requests("/lists/1") == 1 && lists.requests("/crl") == 1)
        await lists.stop()
    }

    @Test("a clean response verifies on fetched lists; /readyz lists them fresh; /metrics counts the fetches; the next verification uses the cache")
    func readyzAndMetrics() async throws {
        let lists = try await RevocationListServer.start()
        let (wallet, configuration) = try Self.setUp(lists, faults: [], policy: .hard)
        defer { wallet.remove() }
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            for _ in 0..<2 {
                let answer = try await Self.verify(wallet, on: server, faults: [])
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.text.contains(lists.url("/lists/1")))
            }
            let ready = try jsonObject(try await server.client.get("/readyz"))
            let revocation = try #require(ready["revocation"] as? [String: Any])
            #expect(revocation["policy"] as? String == "hard" && revocation["fetch"] as? Bool == true)
            let counts = try #require(revocation["lists"] as? [String: Int])
            #expect(counts == ["fresh": 2, "stale": 0, "unreachable": 0])
            #expect(!ready.description.contains(lists.url("/lists/1")), "/readyz names no list URI")
            let metrics = try await server.client.get("/metrics").text
            #expect(metrics.contains(#"revocation_fetches_total{kind="status",outcome="ok"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"revocation_cache_lookups_total{kind="status",result="hit"}"#))
        }
        #expect(lists.requests("/lists/1") == 1)
        await lists.stop()
    }

    @Test("list server down: soft verifies with a warning, /readyz stays ready and reports the list unreachable; hard rejects")
    func listServerDown() async throws {
        let lists = try await RevocationListServer.start()
        let (wallet, soft) = try Self.setUp(lists, faults: [], policy: .soft)
        defer { wallet.remove() }
        await lists.stop()
        try await ServerFixture.withServer(soft, store: InMemoryRequestStore()) { server in
            let answer = try await Self.verify(wallet, on: server, faults: [])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.text.contains("status unknown: fetching \(lists.url("/lists/1")) failed"))
            let readyz = try await server.client.get("/readyz")
            #expect(readyz.status == 200)
            let revocation = try #require(try jsonObject(readyz)["revocation"] as? [String: Any])
            #expect(revocation["lists"] as? [String: Int] == ["fresh": 0, "stale": 0, "unreachable": 2])
            #expect(!answer.text.contains("Connection refused") && !readyz.text.contains("Connection refused"))
        }
        var hard = soft
        hard.revocation = .hard
        try await ServerFixture.withServer(hard, store: InMemoryRequestStore()) { server in
            let answer = try await Self.verify(wallet, on: server, faults: [])
            #expect(answer.status == 422)
            #expect(Set(try errorCodes(answer)) == ["revocation.unknown"])
        }
    }

    @Test("the operator endpoint lists fetched lists with their state only with the bearer token; 401 for all when none is configured")
    func operatorEndpoint() async throws {
        let lists = try await RevocationListServer.start()
        let (wallet, configuration) = try Self.setUp(lists, faults: [], policy: .hard)
        defer { wallet.remove() }
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let unconfigured = try await server.client.get("/v1/operator/revocation", headers: [("Authorization", "Bearer ")])
            #expect(unconfigured.status == 401)
        }
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("operator-\(UUID().uuidString)").path
        try Data("s3cret-operator-token\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        defer { try? FileManager.default.removeItem(atPath: tokenFile) }
        var protected = configuration
        protected.operatorTokenFile = tokenFile
        try await ServerFixture.withServer(protected, store: InMemoryRequestStore()) { server in
            #expect(try await Self.verify(wallet, on: server, faults: []).status == 200)
            #expect(try await server.client.get("/v1/operator/revocation").status == 401)
            #expect(try await server.client.get("/v1/operator/revocation", headers: [("Authorization", "Bearer wrong")]).status == 401)
            let answer = try await server.client.get("/v1/operator/revocation", headers: [("Authorization", "Bearer s3cret-operator-token")])
            #expect(answer.status == 200)
            let entries = try #require(try jsonObject(answer)["lists"] as? [[String: Any]])
            #expect(entries.map { "\($0["kind"] ?? "") \($0["state"] ?? "")" } == ["crl fresh", "status fresh"])
            #expect(answer.text.contains(lists.url("/lists/1")))
        }
        await lists.stop()
    }

    @Test("without an allow entry a status list on loopback is a refused destination: nothing is requested, the caller sees only the category")
    func loopbackRefusedByDefault() async throws {
        let lists = try await RevocationListServer.start()
        let (wallet, allowed) = try Self.setUp(lists, faults: [], policy: .hard)
        defer { wallet.remove() }
        var configuration = allowed
        configuration.revocationFetchAllow = []
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let answer = try await Self.verify(wallet, on: server, faults: [])
            #expect(answer.status == 422)
            #expect(Set(try errorCodes(answer)) == ["revocation.unknown"])
            #expect(answer.text.contains("failed: refused destination"), "\(answer.text)")
            #expect(!answer.text.contains("127.0.0.1 (") && !answer.text.contains("errno"))
        }
        #expect(lists.requests("/lists/1") == 0 && lists.requests("/crl") == 0)
        await lists.stop()
    }

    @Test("a status list file replaced on disk is picked up by the trust file check: the same document is then revoked")
    func revocationFilesReload() async throws {
        let wallet = try SimulatedWallet(time: Self.time)
        defer { wallet.remove() }
        let configuration = try wallet.withRevocationFiles(wallet.configuration(testMode: true, pinnedTime: true), faults: [])
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            #expect(try await Self.verify(wallet, on: server, faults: []).status == 200)
            let revoked = try #require(try wallet.revocationMaterial(faults: [.statusRevoked]).tokens.values.first)
            try Data(revoked).write(to: URL(fileURLWithPath: try #require(configuration.statusListPaths.first)))
            #expect(server.app.checkTrustFiles())
            let answer = try await Self.verify(wallet, on: server, faults: [])
            #expect(answer.status == 422)
            #expect(try errorCodes(answer) == ["status.revoked"])
        }
    }
}
