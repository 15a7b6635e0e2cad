import CryptoCore
import Foundation
import NIOConcurrencyHelpers
import ServiceLifecycle

/// A store in process memory, for tests only: the configuration refuses it outside test mode.
public final class InMemoryRequestStore: RequestStore {
    private struct Entry {
        var request: StoredRequest
        var attempts: Int
    }

    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    private let issueIDs = NIOLockedValueBox<[String: UInt64]>([:])
    private struct Queued {
        var event: WebhookEvent
        var due: Date
        var leaseUntil: Date?
    }
    private let outbox = NIOLockedValueBox<[String: Queued]>([:])

    /// Creates an empty store.
    public init() {}

    /// "memory".
    public var kind: String { "memory" }
    /// None: the store needs no background service.
    public var services: [any Service] { [] }

    /// Does nothing: there is no schema.
    public func prepare() async throws {}

    /// Stores a new pending request; throws `RequestStoreError` when its ID is already taken or `deadline` has passed.
    public func insert(_ request: StoredRequest, deadline: Date) async throws {
        try RequestStoreError.checkDeadline(deadline)
        try entries.withLockedValue { entries in
            guard entries[request.id] == nil else { throw RequestStoreError("duplicate request id") }
            entries[request.id] = Entry(request: request, attempts: 0)
        }
    }

    /// Counts an attempt on request `id`, empties its state and says what it found, as of `now`; throws, changing
    /// nothing, when `deadline` has passed.
    public func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        try RequestStoreError.checkDeadline(deadline)
        return entries.withLockedValue { entries in
            guard var entry = entries[id], Self.sameHash(entry.request.clientSecretHash, clientSecretHash) else { return .unknown }
            let request = entry.request
            entry.attempts += 1
            entry.request.state = .empty
            entries[id] = entry
            return ConsumeDecision.outcome(attempts: entry.attempts, expiresAt: request.expiresAt, now: now, request: request)
        }
    }

    /// Marks request `id` fetched unless it is fetched, consumed or expired at `now`.
    public func markFetched(id: String, now: Date) async throws -> Bool {
        entries.withLockedValue { entries in
            guard let entry = entries[id], entry.attempts == 0, entry.request.fetchedAt == nil, now < entry.request.expiresAt else { return false }
            entries[id]?.request.fetchedAt = now
            return true
        }
    }

    /// Keeps the result of consumed request `id` unless one is kept already, and then queues `webhook`.
    public func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        let kept = entries.withLockedValue { entries in
            guard let entry = entries[id], entry.attempts > 0, entry.request.result == nil else { return false }
            entries[id]?.request.result = result
            return true
        }
        if kept, let webhook {
            outbox.withLockedValue { $0[webhook.id] = $0[webhook.id] ?? Queued(event: webhook, due: webhook.createdAt) }
        }
    }

    /// Leases the due events, oldest first.
    public func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        outbox.withLockedValue { outbox in
            let due = outbox.values.filter { $0.due <= now && ($0.leaseUntil.map { $0 <= now } ?? true) }
                .sorted { $0.event.createdAt < $1.event.createdAt }.prefix(limit)
            for queued in due { outbox[queued.event.id]?.leaseUntil = leaseUntil }
            return due.map(\.event)
        }
    }

    /// Reschedules or removes a leased event.
    public func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws {
        outbox.withLockedValue { outbox in
            guard let retryAt else { return outbox[id] = nil }
            outbox[id]?.event.attempts = attempts
            outbox[id]?.due = retryAt
            outbox[id]?.leaseUntil = nil
        }
    }

    /// The waiting events.
    public func webhookBacklog() async throws -> WebhookBacklog {
        outbox.withLockedValue { WebhookBacklog(count: $0.count, oldest: $0.values.map(\.event.createdAt).min()) }
    }

    /// Deletes outbox events queued before `cutoff`; returns how many.
    public func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int {
        outbox.withLockedValue { outbox in
            let old = outbox.filter { $0.value.event.createdAt < cutoff }.map(\.key)
            for id in old { outbox[id] = nil }
            return old.count
        }
    }

    /// Both nil, or the same text (compared in constant time).
    private static func sameHash(_ stored: String?, _ presented: String?) -> Bool {
        switch (stored, presented) {
        case (nil, nil): return true
        case (let stored?, let presented?): return constantTimeEquals(Array(stored.utf8), Array(presented.utf8))
        default: return false
        }
    }

    /// The key's transactions neither consumed nor expired.
    public func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding {
        entries.withLockedValue { entries in
            let open = entries.values.filter { $0.request.apiKeyID == apiKeyID && $0.attempts == 0 && $0.request.expiresAt > now }
            return KeyOutstanding(count: open.count, earliestExpiry: open.map(\.request.expiresAt).min())
        }
    }

    /// The request `id` as stored, without consuming it; nil when there is none.
    public func lookup(id: String) async throws -> StoredRequest? {
        entries.withLockedValue { $0[id]?.request }
    }

    /// Deletes requests that expired before `cutoff`; returns how many.
    public func purge(expiredBefore cutoff: Date) async throws -> Int {
        entries.withLockedValue { entries in
            let expired = entries.filter { $0.value.request.expiresAt < cutoff }.map(\.key)
            for id in expired { entries[id] = nil }
            return expired.count
        }
    }

    /// Empties the state of requests that expired at or before `cutoff`; returns how many still held one.
    public func eraseState(expiredBefore cutoff: Date) async throws -> Int {
        entries.withLockedValue { entries in
            let expired = entries.filter { $0.value.request.expiresAt <= cutoff && !$0.value.request.state.isEmpty }.map(\.key)
            for id in expired { entries[id]?.request.state = .empty }
            return expired.count
        }
    }

    /// The highest accepted `vicalIssueID` per provider.
    public func vicalIssueIDs() async throws -> [String: UInt64] { issueIDs.withLockedValue { $0 } }

    /// Raises `provider`'s remembered issue ID (never lowers it).
    public func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        issueIDs.withLockedValue { $0[provider] = max($0[provider] ?? 0, issueID) }
    }

    /// Always succeeds.
    public func ping() async throws {}
}

/// How every store reads the row its atomic `attempts = attempts + 1` update returned.
enum ConsumeDecision {
    static func outcome(attempts: Int, expiresAt: Date, now: Date, request: @autoclosure () throws -> StoredRequest) rethrows -> ConsumeOutcome {
        guard attempts == 1 else { return .replayed }
        guard now < expiresAt else { return .expired }
        return .consumed(try request())
    }
}
