import Foundation
import Logging
import Mdoc
import NIOPosix
import SQLiteNIO
import Testing
import VerifyServer

/// Transactions in every store: only the matching client-secret hash consumes one, the result is kept once, and a
/// table from before these columns gains them.
@Suite("Request stores: transactions (client-secret hash, key ID, result, fetched by reference) and the schema migration")
struct TransactionStoreTests {
    static let hash = String(repeating: "ab", count: 32)

    static func transaction(now: Date) -> StoredRequest {
        var request = RequestStoreTests.request(now: now)
        request.clientSecretHash = hash
        request.apiKeyID = "shop"
        return request
    }

    static func checkTransactions(_ store: any RequestStore) async throws {
        try await store.prepare()
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        let stored = transaction(now: now)
        try await store.insert(stored)
        #expect(try await store.lookup(id: stored.id) == stored)
        // Neither the deprecated consume (no hash) nor a wrong hash finds it, and neither consumes it.
        #expect(try await store.consume(id: stored.id, now: now) == .unknown)
        #expect(try await store.consume(id: stored.id, clientSecretHash: String(repeating: "cd", count: 32), now: now, deadline: .distantFuture) == .unknown)
        #expect(try await store.consume(id: stored.id, clientSecretHash: "", now: now, deadline: .distantFuture) == .unknown)
        // A result is kept only once consumed.
        try await store.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"))
        #expect(try await store.lookup(id: stored.id)?.result == nil)
        #expect(try await store.consume(id: stored.id, clientSecretHash: hash, now: now, deadline: .distantFuture) == .consumed(stored))
        #expect(try await store.consume(id: stored.id, clientSecretHash: hash, now: now, deadline: .distantFuture) == .replayed)
        #expect(try await store.consume(id: stored.id, clientSecretHash: nil, now: now, deadline: .distantFuture) == .unknown)

        let result = StoredResult(verified: true, report: #"{"verified":true}"#)
        try await store.recordResult(id: stored.id, result: result)
        try await store.recordResult(id: stored.id, result: StoredResult(verified: false, report: #"{"verified":false}"#))
        let read = try #require(try await store.lookup(id: stored.id))
        #expect(read.result == result)
        #expect(read.apiKeyID == "shop" && read.clientSecretHash == hash)
        #expect(read.state.isEmpty)

        // A request made without a secret is not found with one.
        let legacy = RequestStoreTests.request(now: now)
        try await store.insert(legacy)
        #expect(try await store.consume(id: legacy.id, clientSecretHash: hash, now: now, deadline: .distantFuture) == .unknown)
        #expect(try await store.consume(id: legacy.id, now: now) == .consumed(legacy))

        // Expired with the right hash: expired; the row (and its result) goes with the purge.
        let late = transaction(now: now)
        try await store.insert(late)
        #expect(try await store.consume(id: late.id, clientSecretHash: hash, now: late.expiresAt, deadline: .distantFuture) == .expired)
        _ = try await store.purge(expiredBefore: now.addingTimeInterval(3600))
        #expect(try await store.lookup(id: stored.id) == nil)
    }

    /// A request fetched by reference: marked once (a second mark, a consumed or an expired request: false), the
    /// instant kept, and a result kept with its response-code hash.
    static func checkFetched(_ store: any RequestStore) async throws {
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        let stored = transaction(now: now)
        try await store.insert(stored)
        #expect(try await store.lookup(id: stored.id)?.fetchedAt == nil)
        #expect(try await store.markFetched(id: stored.id, now: now))
        #expect(try await store.markFetched(id: stored.id, now: now.addingTimeInterval(1)) == false)
        #expect(try await store.lookup(id: stored.id)?.fetchedAt == now)
        #expect(try await store.markFetched(id: "no-such-request", now: now) == false)
        guard case .consumed = try await store.consume(id: stored.id, clientSecretHash: hash, now: now, deadline: .distantFuture) else {
            Issue.record("the fetched request was not consumed")
            return
        }
        let result = StoredResult(verified: true, report: "{}", responseCodeHash: String(repeating: "ef", count: 32))
        try await store.recordResult(id: stored.id, result: result)
        #expect(try await store.lookup(id: stored.id)?.result == result)

        let consumedFirst = transaction(now: now)
        try await store.insert(consumedFirst)
        _ = try await store.consume(id: consumedFirst.id, clientSecretHash: hash, now: now, deadline: .distantFuture)
        #expect(try await store.markFetched(id: consumedFirst.id, now: now) == false)
        let late = transaction(now: now)
        try await store.insert(late)
        #expect(try await store.markFetched(id: late.id, now: late.expiresAt) == false)
        #expect(try await store.lookup(id: late.id)?.fetchedAt == nil)
    }

    @Test("in-memory store")
    func memory() async throws {
        try await Self.checkTransactions(InMemoryRequestStore())
        try await Self.checkFetched(InMemoryRequestStore())
    }

    @Test("SQLite store")
    func sqlite() async throws {
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let store = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await Self.checkTransactions(store)
        try await Self.checkFetched(store)
        try await store.close()
    }

    @Test("PostgreSQL store", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgres() async throws {
        try await TestPostgres.withStore { store in
            try await Self.checkTransactions(store)
            try await Self.checkFetched(store)
            // prepare() again on a table that has the columns already changes nothing.
            try await store.prepare()
        }
    }

    @Test("an SQLite table of an earlier version gains the new columns; its pending request is still consumed once")
    func sqliteMigration() async throws {
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        let old = RequestStoreTests.request(now: now)
        let threads = NIOThreadPool(numberOfThreads: 1)
        threads.start()
        let connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threads, logger: ServerFixture.quietLogger,
                                                         on: MultiThreadedEventLoopGroup.singleton.any())
        // The table as the previous release created it.
        _ = try await connection.query("""
            CREATE TABLE verify_requests (id TEXT PRIMARY KEY, format TEXT NOT NULL, policy TEXT NOT NULL, state TEXT NOT NULL,
                created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, consumed_at INTEGER, attempts INTEGER NOT NULL DEFAULT 0)
            """)
        let policy = String(decoding: try JSONEncoder().encode(old.policy), as: UTF8.self)
        _ = try await connection.query("INSERT INTO verify_requests (id, format, policy, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                                       [.text(old.id), .text(old.format.rawValue), .text(policy), .text(#"{"nonce":"bm9uY2U"}"#),
                                        .integer(1_000_000_000_000), .integer(1_000_000_060_000)])
        try await connection.close()
        try await threads.shutdownGracefully()

        let store = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await store.prepare()
        try await store.prepare()
        #expect(try await store.consume(id: old.id, now: now) == .consumed(old))
        try await Self.checkTransactions(store)
        try await store.close()
    }
}
