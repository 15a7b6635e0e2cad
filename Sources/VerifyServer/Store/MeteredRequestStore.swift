import Foundation
import ServiceLifecycle

/// Wraps a store to count and time every operation in `/metrics`, and to bound each by `timeout`: a store that
/// does not answer (PostgreSQL down: the pool keeps retrying; PostgreSQL hung) fails the operation at `timeout`
/// instead of hanging the caller, who does not wait for the store call to end.
///
/// An insert or consume the caller stopped waiting for may still reach the store later (a query already sent to a
/// hung database runs when it wakes up), so each gets the instant the caller stops waiting as its deadline, which the
/// store keeps with a margin (`StoreDeadline`).
struct MeteredRequestStore: RequestStore {
    let base: any RequestStore
    let metrics: ServerMetrics
    /// Told when a request is consumed (any attempt that finds it), so it stops counting it.
    let outstanding: OutstandingRequests
    let timeout: Duration
    /// Bounds each operation by `timeout`.
    let timeLimit: TimeLimit
    /// The store's location without credentials, for error messages.
    let name: String

    var kind: String { base.kind }
    var services: [any Service] { base.services }

    func prepare() async throws {
        try await measure("prepare") { try await base.prepare() }
    }

    func insert(_ request: StoredRequest, deadline: Date) async throws {
        let deadline = min(deadline, StoreDeadline.date(after: timeout))
        try await measure("insert") { try await base.insert(request, deadline: deadline) }
    }

    func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        let deadline = min(deadline, StoreDeadline.date(after: timeout))
        return try await measure("consume", result: \.label) { [base, outstanding] in
            let outcome = try await base.consume(id: id, clientSecretHash: clientSecretHash, now: now, deadline: deadline)
            // In the operation's own task, so a consume that ends after the timeout still stops the count.
            if case .unknown = outcome {} else { outstanding.release(id: id) }
            return outcome
        }
    }

    func markFetched(id: String, now: Date) async throws -> Bool {
        try await measure("mark_fetched", result: { $0 ? "marked" : "not_marked" }) { try await base.markFetched(id: id, now: now) }
    }

    func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        try await measure("record_result") { try await base.recordResult(id: id, result: result, webhook: webhook) }
    }

    func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        try await measure("webhook_claim") { try await base.claimWebhooks(now: now, leaseUntil: leaseUntil, limit: limit) }
    }

    func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws {
        try await measure("webhook_settle") { try await base.settleWebhook(id: id, attempts: attempts, retryAt: retryAt) }
    }

    func webhookBacklog() async throws -> WebhookBacklog {
        try await measure("webhook_backlog") { try await base.webhookBacklog() }
    }

    func lookup(id: String) async throws -> StoredRequest? {
        try await measure("lookup") { try await base.lookup(id: id) }
    }

    func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding {
        try await measure("outstanding") { try await base.outstanding(apiKeyID: apiKeyID, now: now) }
    }

    func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int {
        try await measure("purge_webhooks") { try await base.purgeWebhooks(queuedBefore: cutoff) }
    }

    func purge(expiredBefore cutoff: Date) async throws -> Int {
        let count = try await measure("purge") { try await base.purge(expiredBefore: cutoff) }
        metrics.purged(count)
        return count
    }

    func eraseState(expiredBefore cutoff: Date) async throws -> Int {
        try await measure("erase_state") { try await base.eraseState(expiredBefore: cutoff) }
    }

    func vicalIssueIDs() async throws -> [String: UInt64] {
        try await measure("vical_issues") { try await base.vicalIssueIDs() }
    }

    func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        try await measure("vical_issue_record") { try await base.recordVICALIssueID(provider: provider, issueID: issueID) }
    }

    func ping() async throws {
        try await measure("ping") { try await base.ping() }
    }

    private func measure<T: Sendable>(_ operation: String, result label: (T) -> String = { _ in "ok" },
                                      _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await withTimeout(body)
            metrics.storeOperation(operation, result: label(value), duration: ContinuousClock.now - start)
            return value
        } catch {
            metrics.storeOperation(operation, result: "error", duration: ContinuousClock.now - start)
            throw error
        }
    }

    /// Runs `body`, cancelling it and answering without it when `timeout` passes first.
    private func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await timeLimit.run(timeout, waitingForEnd: false, body)
        } catch is TimeLimit.Exceeded {
            throw RequestStoreError("request store \(name) did not answer within \(timeout)")
        }
    }
}

/// How an insert's or consume's deadline is kept. The caller passes the instant it stops waiting; the store acts only
/// before that instant minus a margin for its answer to reach the caller (and, for a database with a clock of its own,
/// for the difference between the clocks). Then a call the caller stopped waiting for either took effect before the
/// caller answered, or never does.
enum StoreDeadline {
    /// When a caller that waits `timeout` from now (wall clock, which is what a database compares) stops waiting.
    static func date(after timeout: Duration, now: Date = Date()) -> Date {
        let (seconds, attoseconds) = timeout.components
        return now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The latest instant a store may act for a caller that stops waiting at `deadline`: `margin` earlier, but at most
    /// a fifth of the time left at `now`, so a short deadline still leaves the store most of it.
    static func latestAction(before deadline: Date, margin: TimeInterval, now: Date = Date()) -> Date {
        let left = deadline.timeIntervalSince(now)
        guard left > 0 else { return deadline }
        return deadline.addingTimeInterval(-min(margin, left / 5))
    }
}

extension ConsumeOutcome {
    var label: String {
        switch self {
        case .consumed: return "consumed"
        case .expired: return "expired"
        case .replayed: return "replayed"
        case .unknown: return "unknown"
        }
    }
}
