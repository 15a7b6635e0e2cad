import Foundation
import ServiceLifecycle

/// Where pending requests live between `POST /v1/requests` and `POST /v1/verify`.
///
/// `consume` is the single-use guarantee: implementations decide it in one atomic step, so that of any number of
/// concurrent attempts on one request (from any number of server instances sharing the store) exactly one gets
/// `.consumed` or `.expired` and every other one `.replayed`. The same step empties the stored state (the format's
/// secrets, e.g. a private key), so a consumed request keeps none; `eraseState(expiredBefore:)` empties that of
/// requests that expired unused.
///
/// `insert` and `consume` take a deadline: the instant (wall clock) the caller stops waiting. The server stops at
/// `storeTimeout` and answers 503 `store.unavailable`; a store acts only early enough before the deadline for its
/// answer to arrive in time, so an operation the server stopped waiting for either took effect before its answer or
/// never does, however late the store gets to it: a 503 consumes nothing and creates nothing.
public protocol RequestStore: Sendable {
    /// A short description for logs and `/readyz` (never includes credentials).
    var kind: String { get }
    /// Creates the schema if needed.
    ///
    /// Called once before the server accepts connections.
    func prepare() async throws
    /// Stores a new pending request, unless the store gets to it too close to `deadline` (when the caller stops
    /// waiting); throws when it cannot be stored (e.g. a duplicate ID, an unreachable store, or too late: then nothing
    /// is stored).
    func insert(_ request: StoredRequest, deadline: Date) async throws
    /// Marks the request consumed (whatever happens next) and says what the attempt found, as of `now`.
    ///
    /// Only a request whose `clientSecretHash` equals `clientSecretHash` is found: nil finds requests made without a
    /// client secret (`POST /v1/requests`), a hash finds the transaction stored with that hash; any other request is
    /// `.unknown` and left as it is. In the same atomic step the stored state becomes empty; `.consumed` carries the
    /// state as it was. Throws, and changes nothing, when the store gets to the request too close to `deadline` (when
    /// the caller stops waiting).
    func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome
    /// Marks the request object of request `id` fetched at `now` (a format whose wallet fetches its request by
    /// reference, `FormatWire.byReference`), in one atomic step, when it is neither fetched nor consumed nor expired;
    /// returns whether this call marked it. Of any number of concurrent callers, on any instance sharing the store, at
    /// most one gets true: a request object is served once.
    func markFetched(id: String, now: Date) async throws -> Bool
    /// Keeps the outcome of a consumed transaction's verification for its backend (`lookup` returns it); the first
    /// result recorded stays. With `webhook`, the event announcing it joins the outbox in the same atomic step, only
    /// when this result is the one kept. Throws when it cannot be stored.
    func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws
    /// Leases up to `limit` outbox events due at `now` (their next attempt reached, no live lease), oldest first, until
    /// `leaseUntil`: no other caller, in this process or another instance, gets them before then.
    func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent]
    /// Ends a leased event's attempt: with `retryAt`, it records `attempts` failed attempts and is due again then (the
    /// lease released); without, it leaves the outbox (delivered, or given up).
    func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws
    /// How many events wait in the outbox, and when the oldest was queued.
    func webhookBacklog() async throws -> WebhookBacklog
    /// Deletes outbox events queued before `cutoff`, attempted or not, leased or not; returns how many. (Their bodies
    /// may carry a report: none outlives the retry schedule, nor a webhook the operator turned off.)
    func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int
    /// The transactions API key `apiKeyID` created that are neither consumed nor expired at `now`, across every
    /// instance sharing the store, and when the first of them expires.
    func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding
    /// The request as stored, without consuming it (the inspector reads it); nil when there is none.
    func lookup(id: String) async throws -> StoredRequest?
    /// Deletes requests that expired before `cutoff`; returns how many.
    func purge(expiredBefore cutoff: Date) async throws -> Int
    /// Empties the stored state of requests that expired at or before `cutoff` and still hold one; returns how many.
    ///
    /// The rows stay (a late attempt still gets `.expired`) until `purge(expiredBefore:)` deletes them.
    func eraseState(expiredBefore cutoff: Date) async throws -> Int
    /// The highest `vicalIssueID` accepted per VICAL provider, by any instance sharing the store.
    func vicalIssueIDs() async throws -> [String: UInt64]
    /// Raises the remembered issue ID of `provider` to `issueID` (never lowers it).
    func recordVICALIssueID(provider: String, issueID: UInt64) async throws
    /// Succeeds when the store answers a trivial query.
    func ping() async throws
    /// Services that must run while the store is used (connection pools, closing on shutdown).
    var services: [any Service] { get }
}

extension RequestStore {
    /// Keeps the outcome of a consumed transaction's verification, announcing it to no webhook.
    public func recordResult(id: String, result: StoredResult) async throws {
        try await recordResult(id: id, result: result, webhook: nil)
    }

    /// Stores a new pending request with no deadline of its own (a timed layer such as the server's adds one).
    public func insert(_ request: StoredRequest) async throws {
        try await insert(request, deadline: .distantFuture)
    }

    /// Consumes request `id`, made without a client secret, with no deadline of its own (a timed layer such as the
    /// server's adds one).
    public func consume(id: String, now: Date) async throws -> ConsumeOutcome {
        try await consume(id: id, clientSecretHash: nil, now: now, deadline: .distantFuture)
    }
}

/// A failure of a request store, or an unusable store URL.
///
/// Messages never contain the store's password.
public struct RequestStoreError: Error, CustomStringConvertible, Sendable {
    /// A human-readable explanation, for logs and configuration problems.
    public let message: String
    /// Creates an error with `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

extension RequestStoreError {
    /// The error of a store that got to an insert or consume after its deadline, and so did not act.
    static let deadlinePassed = RequestStoreError(
        "the request store got to the operation after its deadline and did not act (the store was slow or hung)")

    /// Throws `deadlinePassed` unless the wall clock is before `instant` (for stores that share the server's clock).
    static func checkDeadline(_ instant: Date) throws {
        guard Date() < instant else { throw deadlinePassed }
    }
}
