import Foundation
import ServiceLifecycle

/// Wraps a store to count and time every operation in `/metrics`, and to bound each by `timeout`: a store that
/// does not answer (PostgreSQL down: the pool keeps retrying) fails the operation instead of hanging the caller.
struct MeteredRequestStore: RequestStore {
    let base: any RequestStore
    let metrics: ServerMetrics
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

    func insert(_ request: StoredRequest) async throws {
        try await measure("insert") { try await base.insert(request) }
    }

    func consume(id: String, now: Date) async throws -> ConsumeOutcome {
        try await measure("consume", result: \.label) { try await base.consume(id: id, now: now) }
    }

    func lookup(id: String) async throws -> StoredRequest? {
        try await measure("lookup") { try await base.lookup(id: id) }
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

    /// Runs `body`, cancelling it when `timeout` passes first.
    private func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await timeLimit.run(timeout, body)
        } catch is TimeLimit.Exceeded {
            throw RequestStoreError("request store \(name) did not answer within \(timeout)")
        }
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
