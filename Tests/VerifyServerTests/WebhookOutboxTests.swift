import Foundation
import Logging
import Synchronization
import Testing
@testable import VerifyServer

/// Fails the test instead of hanging it when `body` does not end within `seconds` (a hang guard, not a timing).
func withinHangGuard<T: Sendable>(seconds: Int = 60, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw HangGuardError(what: what)
        }
        group.cancelAll()
        return value
    }
}

struct HangGuardError: Error, CustomStringConvertible {
    let what: String
    var description: String { "\(what) did not end (hang guard)" }
}

@Suite("verify-server webhooks as an outbox in the request store: a shutdown never waits for a retry, another instance delivers", .serialized)
struct WebhookOutboxTests {
    /// Every store's outbox: queued with the result only, leased by one caller at a time, rescheduled, removed.
    static func checkOutbox(_ store: any RequestStore) async throws {
        try await store.prepare()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let stored = TransactionStoreTests.transaction(now: now)
        var event = WebhookEvent(id: "msg_\(stored.id)", requestId: stored.id, body: #"{"type":"transaction.verified"}"#, createdAt: now)
        // The transaction's own destination travels with the event (compared with every claim below).
        event.url = "https://hooks.example/own"
        func mine(_ events: [WebhookEvent]) -> [WebhookEvent] { events.filter { $0.id == event.id } }
        func claim(at time: Date) async throws -> [WebhookEvent] {
            mine(try await store.claimWebhooks(now: time, leaseUntil: time.addingTimeInterval(45), limit: 1000))
        }
        try await store.insert(stored)
        // Not consumed: no result is kept, so no event is queued.
        try await store.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"), webhook: event)
        #expect(try await claim(at: now).isEmpty)
        #expect(try await store.consume(id: stored.id, clientSecretHash: TransactionStoreTests.hash, now: now, deadline: .distantFuture) == .consumed(stored))
        try await store.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"), webhook: event)
        // A second result is not kept, and queues nothing more.
        var other = event
        other.body = #"{"type":"transaction.rejected"}"#
        try await store.recordResult(id: stored.id, result: StoredResult(verified: false, report: "{}"), webhook: other)
        #expect(try await store.webhookBacklog().count >= 1)
        #expect(try await claim(at: now) == [event])
        // Leased: nobody else gets it until the lease ends (an instance that died holding it).
        #expect(try await claim(at: now.addingTimeInterval(44)).isEmpty)
        #expect(try await claim(at: now.addingTimeInterval(46)) == [event])
        // A failed attempt: due again at retryAt, with its count.
        try await store.settleWebhook(id: event.id, attempts: 1, retryAt: now.addingTimeInterval(300))
        #expect(try await claim(at: now.addingTimeInterval(299)).isEmpty)
        var retried = event
        retried.attempts = 1
        #expect(try await claim(at: now.addingTimeInterval(300)) == [retried])
        // Delivered: gone from the outbox.
        try await store.settleWebhook(id: event.id, attempts: 2, retryAt: nil)
        #expect(try await claim(at: now.addingTimeInterval(100_000)).isEmpty)
    }

    @Test("memory and SQLite outboxes: queued with the result once, leased, rescheduled, removed")
    func outboxes() async throws {
        try await Self.checkOutbox(InMemoryRequestStore())
        try await Self.withSQLiteStore { try await Self.checkOutbox($0) }
    }

    /// A SQLite store in a file of its own around `body`, closed and removed after.
    static func withSQLiteStore(_ body: (SQLiteRequestStore) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServerFixture.withSQLite(path: folder.appendingPathComponent("store.sqlite").path, body)
    }

    @Test("the PostgreSQL outbox", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgresOutbox() async throws {
        try await TestPostgres.withStore { try await Self.checkOutbox($0) }
    }

    /// The handover with two servers on `first` and `second` (the same database).
    static func handOver(first: any RequestStore, second: any RequestStore) async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let clock = TestClock()
        // A receiver that is down: a port that was just listening and now refuses connections.
        let deadPort = try await WebhookReceiver(statuses: [204]).run { $0 }
        let id = try await withinHangGuard("a graceful shutdown while a webhook retry waits") {
            try await WebhookTests.withServer(port: deadPort, store: first, clock: clock, backoff: WebhookSender.defaultBackoff,
                                              wallet: wallet) { server, wallet, key in
                let id = try await WebhookTests.answered(server, wallet, key)
                // The first attempt fails (connection refused); the event waits in the outbox for its retry in 5 s.
                for _ in 0 ..< 500 {
                    let metrics = String(decoding: try await server.client.get("/metrics").body, as: UTF8.self)
                    if metrics.contains(#"verify_server_webhook_attempts_total{outcome="failed"} 1"#) { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                let metrics = String(decoding: try await server.client.get("/metrics").body, as: UTF8.self)
                #expect(metrics.contains(#"verify_server_webhook_attempts_total{outcome="failed"} 1"#))
                #expect(metrics.contains("verify_server_webhook_backlog 1"))
                return id
            }
            // withServer's graceful shutdown returned here without waiting for the retry.
        }
        #expect(try await first.webhookBacklog().count >= 1)
        // The other instance, once the retry is due, delivers the event with the same webhook-id.
        clock.advance(by: 10)
        let receiver = WebhookReceiver(statuses: [204])
        let delivered = try await receiver.run { port in
            try await WebhookTests.withServer(port: port, store: second, clock: clock, wallet: wallet) { _, _, _ in
                try await withinHangGuard("the delivery by the second instance") {
                    // A shared database may hold another test's event too: wait for this one.
                    for await delivery in receiver.received where delivery.headers["webhook-id"] == "msg_\(id)" { return delivery }
                    throw HangGuardError(what: "the receiver stopped before the delivery")
                }
            }
        }
        #expect(delivered.headers["webhook-id"] == "msg_\(id)")
        #expect(try WebhookTests.signatureValid(delivered))
        // Delivered: the outbox no longer holds it.
        for _ in 0 ..< 100 where try await second.webhookBacklog().count > 0 { try await Task.sleep(for: .milliseconds(20)) }
        let left = try await second.claimWebhooks(now: clock.now.addingTimeInterval(100_000), leaseUntil: clock.now, limit: 1000)
        #expect(!left.contains { $0.id == "msg_\(id)" })
    }

    @Test("receiver down: the first attempt fails, the graceful shutdown ends without waiting for the retry, and a second server on the same SQLite file delivers the event when due")
    func handOverSQLite() async throws {
        try await Self.withSQLiteStore { try await Self.handOver(first: $0, second: $0) }
    }

    @Test("the same with two PostgreSQL connection pools, as two instances have", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func handOverPostgres() async throws {
        // A database of its own: a webhook sender of another suite's server would otherwise deliver the event.
        try await TestPostgres.withDatabase { url in
            let first = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
            let second = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
            try await ServerFixture.withStore(first) {
                try await ServerFixture.withStore(second) { try await Self.handOver(first: first, second: second) }
            }
        }
    }
}
