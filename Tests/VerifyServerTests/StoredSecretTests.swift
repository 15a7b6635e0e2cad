import LoopbackClient
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier
import VerifyServer

/// A request's state holds the format's secrets (the Annex C and OpenID4VP private keys): emptied when the request is
/// consumed or expires, and with `requestStateKeyFile` never stored readable at all.
@Suite("verify-server keeps no readable request secrets")
struct StoredSecretTests {
    static let marker = "PRIVATE KEY"

    /// A request whose state holds a PEM private key, as an annex-c request's does.
    static func secretRequest(now: Date, ttl: TimeInterval = 30) throws -> StoredRequest {
        StoredRequest(id: StoredRequest.newID(), format: .annexC, policy: SimulatedWallet.policy,
                      state: .strings(["privateKey": try PrivateKey.generate(.p256).pkcs8PEM(), "origin": SimulatedWallet.origin]),
                      createdAt: now, expiresAt: now.addingTimeInterval(ttl))
    }

    static func holdsSecret(_ request: StoredRequest?) -> Bool {
        request?.state.holds(marker) == true
    }

    /// The store contract on secrets: consumption returns the state once and leaves none; the expiry erase empties
    /// unused requests and keeps their rows; concurrent consumers get the state exactly once.
    static func checkErasure(_ store: any RequestStore) async throws {
        try await store.prepare()
        let now = Date(timeIntervalSince1970: 1_000_000_000 - 30)

        let consumed = try secretRequest(now: now)
        try await store.insert(consumed)
        #expect(holdsSecret(try await store.lookup(id: consumed.id)))
        #expect(try await store.consume(id: consumed.id, now: now) == .consumed(consumed))
        #expect(try await store.lookup(id: consumed.id)?.state == .empty)
        #expect(try await store.consume(id: consumed.id, now: now) == .replayed)

        let late = try secretRequest(now: now)
        try await store.insert(late)
        #expect(try await store.consume(id: late.id, now: late.expiresAt) == .expired)
        #expect(try await store.lookup(id: late.id)?.state == .empty)

        let unused = try secretRequest(now: now)
        let running = try secretRequest(now: now, ttl: 3600)
        try await store.insert(unused)
        try await store.insert(running)
        #expect(try await store.eraseState(expiredBefore: unused.expiresAt) >= 1)
        let erased = try await store.lookup(id: unused.id)
        #expect(erased != nil && erased?.state == .empty, "the row stays, without its state")
        #expect(holdsSecret(try await store.lookup(id: running.id)), "a request that has not expired keeps its state")
        #expect(try await store.consume(id: unused.id, now: unused.expiresAt) == .expired)

        let contested = try secretRequest(now: now)
        try await store.insert(contested)
        let outcomes = try await withThrowingTaskGroup(of: ConsumeOutcome.self) { tasks in
            for _ in 0 ..< 50 { tasks.addTask { try await store.consume(id: contested.id, now: now) } }
            var outcomes: [ConsumeOutcome] = []
            for try await outcome in tasks { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { $0 == .consumed(contested) }.count == 1)
        #expect(outcomes.filter { $0 == .replayed }.count == 49)
        #expect(try await store.lookup(id: contested.id)?.state == .empty)
    }

    @Test("in-memory store: consume and expiry empty the state")
    func memory() async throws {
        try await Self.checkErasure(InMemoryRequestStore())
    }

    @Test("SQLite store: consume and expiry empty the state")
    func sqlite() async throws {
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        try await ServerFixture.withSQLite(path: path) { store in
            try await Self.checkErasure(store)
        }
    }

    @Test("PostgreSQL store: consume and expiry empty the state", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgres() async throws {
        try await TestPostgres.withStore { try await Self.checkErasure($0) }
    }

    // MARK: Through the server

    /// The bytes of the SQLite database and its WAL file.
    static func fileBytes(_ path: String) -> Data {
        [path, path + "-wal", path + "-journal"].reduce(into: Data()) { bytes, file in
            bytes.append(FileManager.default.contents(atPath: file) ?? Data())
        }
    }

    static func contains(_ bytes: Data, _ text: String) -> Bool {
        bytes.range(of: Data(text.utf8)) != nil
    }

    static func key() throws -> RequestStateKey {
        try RequestStateKey(bytes: SecureRandom.bytes(32))
    }

    /// Creates an openid4vp request (dc_api.jwt: its state holds a private key) and returns its ID and wallet answer.
    static func create(_ server: RunningServer, wallet: SimulatedWallet) async throws -> (id: String, response: String) {
        let created = try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("openid4vp"))
        #expect(created.status == 201, "\(created.text)")
        let body = try jsonObject(created)
        let id = try #require(body["requestId"] as? String)
        let response = try wallet.openID4VPResponse(protocolIdentifier: try #require(body["protocol"] as? String),
                                                    data: try #require(body["data"]))
        return (id, response)
    }

    @Test("SQLite without a key: the key is in the row until the verify call, gone from the row after it, and gone from the files after the next purge")
    func sqliteUnsealed() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        try await ServerFixture.withSQLite(path: path) { store in
            try await ServerFixture.withServer(wallet.configuration(), store: store) { server in
                let (id, response) = try await Self.create(server, wallet: wallet)
                #expect(Self.holdsSecret(try await store.lookup(id: id)), "without a key the state is stored as it is")
                let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
                #expect(verified.status == 200, "\(verified.text)")
                let row = try #require(try await store.lookup(id: id))
                #expect(row.state.isEmpty)
                _ = try await server.app.purgeExpiredRequests()
                #expect(!Self.contains(Self.fileBytes(path), Self.marker), "the database files still hold a private key")
            }
        }
    }

    @Test("SQLite with requestStateKey: the database files never hold a readable private key; verification works; replay 409")
    func sqliteSealed() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        try await ServerFixture.withSQLite(path: path) { store in
            var configuration = wallet.configuration()
            configuration.requestStateKey = try Self.key()
            try await ServerFixture.withServer(configuration, store: store) { server in
                let (id, response) = try await Self.create(server, wallet: wallet)
                let stored = try #require(try await store.lookup(id: id))
                #expect(stored.state.names == ["aes-256-gcm"], "\(stored.state.names)")
                #expect(!Self.holdsSecret(stored))
                #expect(!Self.contains(Self.fileBytes(path), Self.marker), "a private key reached the database files before consumption")
                // The server reads it back through the key.
                #expect(Self.holdsSecret(try await server.store.lookup(id: id)))

                let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
                #expect(verified.status == 200, "\(verified.text)")
                #expect(try await store.lookup(id: id)?.state == .empty)
                let replay = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
                #expect(replay.status == 409)
                #expect(!Self.contains(Self.fileBytes(path), Self.marker))
            }
        }
    }

    @Test("annex-c with requestStateKey on the in-memory store: stored sealed, verifies end to end")
    func annexCSealed() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let store = InMemoryRequestStore()
        var configuration = wallet.configuration()
        configuration.requestStateKey = try Self.key()
        try await ServerFixture.withServer(configuration, store: store) { server in
            let created = try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c"))
            #expect(created.status == 201, "\(created.text)")
            let body = try jsonObject(created)
            let id = try #require(body["requestId"] as? String)
            let data = try #require(body["data"] as? [String: Any])
            #expect(!Self.holdsSecret(try await store.lookup(id: id)))
            let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
        }
    }

    @Test("an expired request's state is emptied by the purge tick at expiry; the row answers 410 until it is deleted a TTL later")
    func expiryErase() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let clock = TestClock()
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        try await ServerFixture.withSQLite(path: path) { store in
            let configuration = wallet.configuration()
            try await ServerFixture.withServer(configuration, store: store, clock: clock) { server in
                let (id, response) = try await Self.create(server, wallet: wallet)
                _ = try await server.app.purgeExpiredRequests()
                #expect(Self.holdsSecret(try await store.lookup(id: id)), "erased before it expired")

                // Just past expiry: SQLite keeps milliseconds, rounded, so exactly at it may still be a moment before.
                clock.advance(by: configuration.requestTTL + 0.01)
                #expect(try await server.app.purgeExpiredRequests() == 0)
                let row = try #require(try await store.lookup(id: id))
                #expect(row.state.isEmpty)
                #expect(!Self.contains(Self.fileBytes(path), Self.marker), "the database files still hold a private key")
                let late = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
                #expect(late.status == 410)

                clock.advance(by: configuration.requestTTL + 1)
                #expect(try await server.app.purgeExpiredRequests() == 1)
                #expect(try await store.lookup(id: id) == nil)
            }
        }
    }

    @Test("PostgreSQL with requestStateKey: the row never holds a readable private key; verification works; after it the state is empty",
          .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgresSealed() async throws {
        let url = try #require(TestPostgres.url)
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        for sealed in [true, false] {
            // A pool runs once: one per round.
            let raw = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
            var settings = wallet.configuration()
            settings.store = .postgres(url: url)
            settings.requestStateKey = sealed ? try Self.key() : nil
            let configuration = settings
            try await ServerFixture.withStore(raw) {
                try await ServerFixture.withServer(configuration) { server in
                    let (id, response) = try await Self.create(server, wallet: wallet)
                    #expect(Self.holdsSecret(try await raw.lookup(id: id)) == !sealed)
                    let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
                    #expect(verified.status == 200, "\(verified.text)")
                    #expect(try await raw.lookup(id: id)?.state == .empty)
                }
            }
        }
    }

    @Test("a state sealed under one key is refused (503, logged) under another or none, never handed to a flow")
    func wrongKey() async throws {
        let store = InMemoryRequestStore()
        var sealing = AppleSample.configuration()
        sealing.requestStateKey = try Self.key()
        let request = AppleSample.request()
        try await ServerFixture.withServer(sealing, store: store) { server in
            try await server.store.insert(request)
        }
        #expect(try #require(try await store.lookup(id: request.id)).state.names == ["aes-256-gcm"])
        var other = AppleSample.configuration()
        other.requestStateKey = try Self.key()
        try await ServerFixture.withServer(other, store: store) { server in
            await #expect(throws: RequestStoreError.self) { try await server.store.lookup(id: request.id) }
        }
        try await ServerFixture.withServer(AppleSample.configuration(), store: store) { server in
            let answer = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(answer.status == 503)
            #expect(try errorCode(answer) == "store.unavailable")
        }
    }

    @Test("the key file: 32 raw bytes or 64 hex digits; anything else refused with one line naming the variable")
    func keyFile() throws {
        try ConfigurationTests.withFolder { folder in
            let hex = folder.appendingPathComponent("hex.key").path
            try (Hex.encode(SecureRandom.bytes(32)) + "\n").write(toFile: hex, atomically: true, encoding: .utf8)
            let raw = folder.appendingPathComponent("raw.key").path
            try Data(SecureRandom.bytes(32)).write(to: URL(fileURLWithPath: raw))
            for path in [hex, raw] {
                let configuration = try ConfigurationLoader.load(file: nil, environment: [
                    "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t", "VERIFY_SERVER_DECRYPTION_KEYS": "/k.pem",
                    "VERIFY_SERVER_REQUEST_STATE_KEY_FILE": path,
                ])
                #expect(configuration.requestStateKey != nil)
            }
            let rawBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            var configuration = ServerConfiguration()
            configuration.requestStateKey = try RequestStateKey(bytes: rawBytes)
            for text in ["\(configuration)", String(reflecting: configuration), "\(try #require(configuration.requestStateKey))"] {
                #expect(!text.contains("\(rawBytes)") && !text.contains(Hex.encode(rawBytes)), "the key shows in \(text)")
            }
            let short = folder.appendingPathComponent("short.key").path
            try Hex.encode(SecureRandom.bytes(16)).write(toFile: short, atomically: true, encoding: .utf8)
            let zeros = folder.appendingPathComponent("zeros.key").path
            try String(repeating: "00", count: 32).write(toFile: zeros, atomically: true, encoding: .utf8)
            let huge = folder.appendingPathComponent("huge.key").path
            try Data(count: 1 << 20).write(to: URL(fileURLWithPath: huge))
            let cases: [(path: String, says: String)] = [
                (folder.appendingPathComponent("missing.key").path, "cannot be read"), (short, "32 random bytes"),
                (zeros, "does not look random"), (huge, "32 random bytes"), ("/dev/zero", "32 random bytes"), (folder.path, "cannot be read"),
            ]
            for (path, says) in cases {
                let problems = ConfigurationTests.problems {
                    _ = try ConfigurationLoader.load(file: nil, environment: [
                        "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t", "VERIFY_SERVER_DECRYPTION_KEYS": "/k.pem",
                        "VERIFY_SERVER_REQUEST_STATE_KEY_FILE": path,
                    ])
                }
                #expect(problems.count == 1, "\(path): \(problems)")
                #expect(problems.first?.hasPrefix("VERIFY_SERVER_REQUEST_STATE_KEY_FILE is not usable") == true, "\(problems)")
                #expect(problems.first?.contains(says) == true, "\(path): \(problems)")
            }
            // Empty: no key (the state is stored unencrypted, still emptied).
            let none = try ConfigurationLoader.load(file: nil, environment: [
                "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t", "VERIFY_SERVER_DECRYPTION_KEYS": "/k.pem",
                "VERIFY_SERVER_REQUEST_STATE_KEY_FILE": "",
            ])
            #expect(none.requestStateKey == nil)
        }
    }
}
