import Foundation
import ServiceLifecycle

/// A store that adds one behaviour on top of another (sealing the state, counting outstanding requests) and passes
/// every other operation to `base` unchanged; a layer implements only what it changes.
protocol RequestStoreLayer: RequestStore {
    /// The store underneath.
    var base: any RequestStore { get }
}

extension RequestStoreLayer {
    var kind: String { base.kind }
    var services: [any Service] { base.services }
    func prepare() async throws { try await base.prepare() }
    func insert(_ request: StoredRequest, deadline: Date) async throws { try await base.insert(request, deadline: deadline) }
    func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        try await base.consume(id: id, clientSecretHash: clientSecretHash, now: now, deadline: deadline)
    }
    func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        try await base.recordResult(id: id, result: result, webhook: webhook)
    }
    func markFetched(id: String, now: Date) async throws -> Bool { try await base.markFetched(id: id, now: now) }
    func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        try await base.claimWebhooks(now: now, leaseUntil: leaseUntil, limit: limit)
    }
    func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws {
        try await base.settleWebhook(id: id, attempts: attempts, retryAt: retryAt)
    }
    func webhookBacklog() async throws -> WebhookBacklog { try await base.webhookBacklog() }
    func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int { try await base.purgeWebhooks(queuedBefore: cutoff) }
    func lookup(id: String) async throws -> StoredRequest? { try await base.lookup(id: id) }
    func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding { try await base.outstanding(apiKeyID: apiKeyID, now: now) }
    func purge(expiredBefore cutoff: Date) async throws -> Int { try await base.purge(expiredBefore: cutoff) }
    func eraseState(expiredBefore cutoff: Date) async throws -> Int { try await base.eraseState(expiredBefore: cutoff) }
    func vicalIssueIDs() async throws -> [String: UInt64] { try await base.vicalIssueIDs() }
    func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        try await base.recordVICALIssueID(provider: provider, issueID: issueID)
    }
    func ping() async throws { try await base.ping() }
}
