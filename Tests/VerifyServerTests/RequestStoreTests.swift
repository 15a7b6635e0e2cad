import Foundation
import Logging
import Mdoc
import MdocModel
import SQLiteNIO
import Testing
import VerifyServer

/// The single-use semantics every store shares, checked on the memory, SQLite and PostgreSQL stores.
@Suite("Request stores: consume once, classify unknown / expired / replayed, purge, persist")
struct RequestStoreTests {
    static func temporarySQLitePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-\(UUID().uuidString)/requests.sqlite").path
    }

    static func request(now: Date, ttl: TimeInterval = 60) -> StoredRequest {
        StoredRequest(id: StoredRequest.newID(), format: .appleApp,
                      policy: RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["age_over_21": true]])]),
                      state: .strings(["nonce": "bm9uY2U"]), createdAt: now, expiresAt: now.addingTimeInterval(ttl))
    }

    /// The shared contract, on an open and running store.
    static func checkContract(_ store: any RequestStore) async throws {
        try await store.prepare()
        try await store.ping()
        let now = Date(timeIntervalSince1970: 1_000_000_000)

        let fresh = request(now: now)
        try await store.insert(fresh)
        #expect(try await store.consume(id: fresh.id, now: now) == .consumed(fresh))
        #expect(try await store.consume(id: fresh.id, now: now) == .replayed)
        #expect(try await store.consume(id: fresh.id, now: now.addingTimeInterval(3600)) == .replayed)

        let late = request(now: now)
        try await store.insert(late)
        #expect(try await store.consume(id: late.id, now: late.expiresAt) == .expired)
        #expect(try await store.consume(id: late.id, now: late.expiresAt) == .replayed)

        #expect(try await store.consume(id: StoredRequest.newID(), now: now) == .unknown)

        // Purge removes what expired before the cutoff, consumed or not; the rest stays.
        let old = request(now: now.addingTimeInterval(-7200))
        let current = request(now: now)
        try await store.insert(old)
        try await store.insert(current)
        #expect(try await store.purge(expiredBefore: now) >= 1)
        #expect(try await store.consume(id: old.id, now: now) == .unknown)
        #expect(try await store.consume(id: current.id, now: now) == .consumed(current))

        await #expect(throws: (any Error).self) { try await store.insert(current) }
    }

    @Test("in-memory store")
    func memory() async throws {
        try await Self.checkContract(InMemoryRequestStore())
    }

    @Test("SQLite store; a request survives closing and reopening the file")
    func sqlite() async throws {
        let path = Self.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let store = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await Self.checkContract(store)
        let kept = Self.request(now: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)), ttl: 600)
        try await store.insert(kept)
        try await store.close()

        let reopened = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await reopened.prepare()
        #expect(try await reopened.consume(id: kept.id, now: kept.createdAt) == .consumed(kept))
        try await reopened.close()
    }

    @Test("SQLite: a start on a complete schema takes no write lock (another connection may hold it); a missing index is made")
    func sqliteCompleteSchemaNeedsNoLock() async throws {
        let path = Self.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let first = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await first.prepare()
        try await first.close()
        // Another instance (or a backup) holds the write lock: a start that asked for it would wait busy_timeout and fail.
        let other = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await other.query("BEGIN IMMEDIATE")
        let second = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        await #expect(throws: Never.self) { try await second.prepare() }
        try await second.close()
        _ = try await other.query("DROP INDEX verify_webhooks_due_at")
        _ = try await other.query("COMMIT")
        try await other.close()
        // An incomplete schema is completed, under the lock.
        let third = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await third.prepare()
        try await third.close()
        let check = try await SQLiteConnection.open(storage: .file(path: path))
        let indexes = try await check.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'verify_webhooks_due_at'")
        #expect(indexes.count == 1)
        try await check.close()
    }

    @Test("PostgreSQL store", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgres() async throws {
        try await TestPostgres.withStore { try await Self.checkContract($0) }
    }

    @Test("store URLs: sqlite paths, postgres (password never shown), memory; others refused")
    func storeURLs() throws {
        #expect(try StoreLocation(url: "sqlite:data/requests.sqlite") == .sqlite(path: "data/requests.sqlite"))
        #expect(try StoreLocation(url: "sqlite:///var/lib/verify/requests.sqlite") == .sqlite(path: "/var/lib/verify/requests.sqlite"))
        #expect(try StoreLocation(url: "memory:") == .memory)
        let postgres = try StoreLocation(url: "postgres://app:s3cret@db.internal:6543/verify?sslmode=require&max_connections=8")
        #expect(!postgres.redacted.contains("s3cret"))
        let location = try PostgresLocation(url: "postgres://app:s3cret@db.internal:6543/verify?sslmode=require&max_connections=8")
        #expect(location.port == 6543 && location.database == "verify" && location.maximumConnections == 8 && location.sslMode == "require")
        #expect(throws: RequestStoreError.self) { try StoreLocation(url: "mysql://x") }
        #expect(throws: RequestStoreError.self) { try StoreLocation(url: "postgres://db.internal/verify") }
        #expect(throws: RequestStoreError.self) { try StoreLocation(url: "postgres://a@h/d?sslmode=maybe") }
    }
}
