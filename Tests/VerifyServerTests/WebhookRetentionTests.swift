import Foundation
import Logging
import Synchronization
import Testing
@testable import VerifyServer

/// What the outbox must never do: keep an event (its body may carry a report) past the retry schedule or after the
/// operator turned the webhook off, stall on one event that does not open, or make a `/metrics` scrape query the store.
@Suite("verify-server webhook outbox: retention, unreadable events, metrics without store queries")
struct WebhookRetentionTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A consumed transaction with its result and its queued event; returns the event.
    static func queued(in store: any RequestStore, at time: Date = now, body: String = #"{"type":"transaction.verified"}"#) async throws
        -> WebhookEvent {
        let stored = TransactionStoreTests.transaction(now: time)
        let event = WebhookEvent(id: "msg_\(stored.id)", requestId: stored.id, body: body, createdAt: time)
        try await store.insert(stored)
        _ = try await store.consume(id: stored.id, clientSecretHash: TransactionStoreTests.hash, now: time, deadline: .distantFuture)
        try await store.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"), webhook: event)
        return event
    }

    static func ids(_ store: any RequestStore) async throws -> Set<String> {
        Set(try await store.claimWebhooks(now: now.addingTimeInterval(1_000_000), leaseUntil: now, limit: 1000).map(\.id))
    }

    /// Every store deletes by queue time, leased and attempted events included.
    static func checkPurge(_ store: any RequestStore) async throws {
        try await store.prepare()
        let old = try await queued(in: store)
        let young = try await queued(in: store, at: now.addingTimeInterval(600))
        _ = try await store.claimWebhooks(now: now, leaseUntil: now.addingTimeInterval(45), limit: 1000)   // old is leased
        #expect(try await store.purgeWebhooks(queuedBefore: now) == 0)
        #expect(try await store.purgeWebhooks(queuedBefore: now.addingTimeInterval(1)) >= 1)
        let left = try await ids(store)
        #expect(!left.contains(old.id))
        #expect(left.contains(young.id))
    }

    @Test("memory, SQLite and PostgreSQL delete events by the time they were queued, leased or not")
    func storesPurge() async throws {
        try await ServerFixture.eachStore { try await Self.checkPurge($0) }
    }

    @Test("the purger keeps an event for the whole retry schedule when this instance delivers, and for requestTTL when the webhook is off")
    func purgerRetention() async throws {
        let clock = TestClock(Self.now)
        let sender = WebhookSender(url: "https://hooks.example/in", secrets: { [] }, includeReport: true, allow: [],
                                   store: InMemoryRequestStore(), logger: ServerFixture.quietLogger)
        // Five retries over about 7.6 h: an event is kept longer than that, and not for days.
        #expect(sender.retention > 27_305 * 1.1)
        #expect(sender.retention < 86_400)

        for (retention, keptAfterAnHour) in [(sender.retention as TimeInterval?, true), (nil, false)] {
            let store = InMemoryRequestStore()
            let event = try await Self.queued(in: store)
            let purger = ExpiredRequestPurger(store: store, interval: .seconds(60), retention: 300, webhookRetention: retention,
                                              clock: clock.serverClock, logger: ServerFixture.quietLogger)
            clock.advance(by: 3600)
            _ = try await purger.purgeOnce()
            #expect(try await Self.ids(store).contains(event.id) == keptAfterAnHour)
            clock.advance(by: 86_400)
            _ = try await purger.purgeOnce()
            #expect(try await Self.ids(store).isEmpty, "no event outlives its retention")
            clock.advance(by: -3600 - 86_400)
        }
    }

    @Test("an event sealed with another state key comes back unreadable without holding up the others, and counts as a failed attempt without a POST")
    func unreadableEvent() async throws {
        let base = InMemoryRequestStore()
        let oldKey = try StoredSecretTests.key()
        let newKey = try StoredSecretTests.key()
        let stale = try await Self.queued(in: SealedStateStore(base: base, key: oldKey), body: #"{"secret":"old"}"#)
        let fresh = try await Self.queued(in: SealedStateStore(base: base, key: newKey), at: Self.now.addingTimeInterval(1))
        let sealed = SealedStateStore(base: base, key: newKey)

        let claimed = try await sealed.claimWebhooks(now: Self.now.addingTimeInterval(10), leaseUntil: Self.now.addingTimeInterval(55), limit: 16)
        let unreadable = try #require(claimed.first { $0.id == stale.id })
        #expect(unreadable.unreadable?.contains("does not open") == true)
        #expect(unreadable.body.isEmpty)
        #expect(claimed.first { $0.id == fresh.id }?.body == fresh.body)

        // The sender never posts it (the URL is unroutable; a POST would fail differently) and reschedules it.
        let sender = WebhookSender(url: "https://192.0.2.1/in", secrets: { [] }, includeReport: false, allow: [], store: base,
                                   clock: TestClock(Self.now.addingTimeInterval(10)).serverClock, logger: ServerFixture.quietLogger)
        await sender.attempt(unreadable)
        #expect(try await base.claimWebhooks(now: Self.now.addingTimeInterval(12), leaseUntil: Self.now.addingTimeInterval(60), limit: 16)
            .contains { $0.id == stale.id } == false, "rescheduled after the backoff, not due at once")
        let retried = try await base.claimWebhooks(now: Self.now.addingTimeInterval(3600), leaseUntil: Self.now.addingTimeInterval(3700), limit: 16)
        #expect(retried.first { $0.id == stale.id }?.attempts == 1)
    }

    @Test("a transaction's own webhook URL is sealed in the outbox like the body, and opens only with the key")
    func sealedOwnURL() async throws {
        let base = InMemoryRequestStore()
        let key = try StoredSecretTests.key()
        let sealed = SealedStateStore(base: base, key: key)
        let stored = TransactionStoreTests.transaction(now: Self.now)
        var event = WebhookEvent(id: "msg_\(stored.id)", requestId: stored.id, body: "{}", createdAt: Self.now)
        event.url = "https://hooks.example/in?token=kept-secret"
        try await sealed.insert(stored)
        _ = try await sealed.consume(id: stored.id, clientSecretHash: TransactionStoreTests.hash, now: Self.now, deadline: .distantFuture)
        try await sealed.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"), webhook: event)

        let raw = try #require(try await base.claimWebhooks(now: Self.now.addingTimeInterval(10), leaseUntil: Self.now.addingTimeInterval(11),
                                                            limit: 16).first)
        let rawURL = try #require(raw.url)
        #expect(!rawURL.contains("kept-secret") && rawURL.hasPrefix(SealedStateStore.resultPrefix))
        let opened = try #require(try await sealed.claimWebhooks(now: Self.now.addingTimeInterval(20), leaseUntil: Self.now.addingTimeInterval(21),
                                                                 limit: 16).first)
        #expect(opened.url == event.url && opened.unreadable == nil)
        let otherKey = SealedStateStore(base: base, key: try StoredSecretTests.key())
        let unopened = try #require(try await otherKey.claimWebhooks(now: Self.now.addingTimeInterval(30), leaseUntil: Self.now.addingTimeInterval(31),
                                                                     limit: 16).first)
        #expect(unopened.url == nil && unopened.unreadable != nil)
    }

    @Test("a /metrics scrape never queries the store: the backlog gauges come from the sender, refreshed when the outbox changes")
    func metricsDoNotQueryTheStore() async throws {
        let store = BacklogCountingStore(base: InMemoryRequestStore())
        try await WebhookTests.withServer(port: 9, store: store) { server, _, _ in
            // The sender's first pass measures the backlog; wait for it, then scrape.
            for _ in 0 ..< 250 where store.calls.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            let before = store.calls.load(ordering: .relaxed)
            for _ in 0 ..< 5 {
                let metrics = try await server.client.get("/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.text.contains("verify_server_webhook_backlog 0"))
            }
            #expect(store.calls.load(ordering: .relaxed) - before <= 1, "five scrapes, at most one measurement of the sender's own")
        }
    }
}

/// Counts backlog queries.
final class BacklogCountingStore: RequestStoreLayer, Sendable {
    let base: any RequestStore
    let calls = Atomic<Int>(0)

    init(base: any RequestStore) { self.base = base }

    func webhookBacklog() async throws -> WebhookBacklog {
        calls.add(1, ordering: .relaxed)
        return try await base.webhookBacklog()
    }
}
