import Foundation
import Logging
import Mdoc
import NIOPosix
import SQLiteNIO
import Testing
import VerifyServer

/// Transactions in every store: only the matching client-secret hash consumes one, the result is kept once, and a
/// table from before these columns gains them.
@Suite("Request stores: transactions (client-secret hash, key ID, result) and the schema migration")
struct TransactionStoreTests {
    static let hash = String(repeating: "ab", count: 32)

    static func transaction(now: Date) -> StoredRequest {
        var request = RequestStoreTests.request(now: now)
        request.clientSecretHash = hash
        request.apiKeyID = "shop"
        return request
    }

    /// `purging`: only on a store of its own (a purge on the shared PostgreSQL database would delete the rows of tests
    /// running at the same time).
    static func checkTransactions(_ store: any RequestStore, purging: Bool = true) async throws {
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
        if purging {
            _ = try await store.purge(expiredBefore: now.addingTimeInterval(3600))
            #expect(try await store.lookup(id: stored.id) == nil)
        }
    }

    @Test("in-memory store")
    func memory() async throws {
        try await Self.checkTransactions(InMemoryRequestStore())
    }

    @Test("SQLite store")
    func sqlite() async throws {
        let path = RequestStoreTests.temporarySQLitePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let store = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await Self.checkTransactions(store)
        try await store.close()
    }

    @Test("PostgreSQL store", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgres() async throws {
        let url = try #require(TestPostgres.url)
        let store = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
        try await ServerFixture.withStore(store) {
            try await Self.checkTransactions(store, purging: false)
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
