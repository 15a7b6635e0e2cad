import Foundation
import ServiceLifecycle

/// Wraps a store to count and time every operation in `/metrics`.
struct MeteredRequestStore: RequestStore {
    let base: any RequestStore
    let metrics: ServerMetrics

    var kind: String { base.kind }
    var services: [any Service] { base.services }

    func prepare() async throws {
        try await measure("prepare") { try await base.prepare() }
    }

    func insert(_ request: StoredRequest) async throws {
        try await measure("insert") { try await base.insert(request) }
    }

    func consume(id: String, now: Date) async throws -> ConsumeOutcome {
        let start = ContinuousClock.now
        do {
            let outcome = try await base.consume(id: id, now: now)
            metrics.storeOperation("consume", result: outcome.label, duration: ContinuousClock.now - start)
            return outcome
        } catch {
            metrics.storeOperation("consume", result: "error", duration: ContinuousClock.now - start)
            throw error
        }
    }

    func purge(expiredBefore cutoff: Date) async throws -> Int {
        let count = try await measure("purge") { try await base.purge(expiredBefore: cutoff) }
        metrics.purged(count)
        return count
    }

    func ping() async throws {
        try await measure("ping") { try await base.ping() }
    }

    private func measure<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            metrics.storeOperation(operation, result: "ok", duration: ContinuousClock.now - start)
            return value
        } catch {
            metrics.storeOperation(operation, result: "error", duration: ContinuousClock.now - start)
            throw error
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
