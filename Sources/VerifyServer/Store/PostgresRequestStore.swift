import Verifier
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// A request store in PostgreSQL, shared by several server instances behind a load balancer.
///
/// Consumption is one statement: a `SELECT … FOR UPDATE` of the row and an `UPDATE … RETURNING` that counts the
/// attempt and empties the state, returning the state as it was. PostgreSQL's row lock serializes concurrent attempts,
/// and each attempt re-reads the latest row version, so exactly one of them sees `attempts = 1` (and the state).
/// Emptied state can linger in old row versions until PostgreSQL vacuums them; `requestStateKeyFile` keeps every
/// stored state encrypted.
public final class PostgresRequestStore: RequestStore {
    /// The PostgresNIO connection pool; it runs as one of `services`.
    public let client: PostgresClient
    private let logger: Logger

    /// Creates the store for `location`; nothing connects until the pool's service runs.
    public init(location: PostgresLocation, logger: Logger) {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: location.tls)
        configuration.options.maximumConnections = location.maximumConnections
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// "postgres".
    public var kind: String { "postgres" }

    /// The connection pool; runs until graceful shutdown, after the HTTP server has drained.
    public var services: [any Service] { [client] }

    /// Creates the `verify_requests` table and its expiry index if they do not exist.
    ///
    /// Instances starting together serialize on a PostgreSQL advisory lock.
    public func prepare() async throws {
        // Instances starting together serialize on an advisory lock; CREATE … IF NOT EXISTS alone can race.
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7226134011)", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS verify_requests (
                    id text PRIMARY KEY,
                    format text NOT NULL,
                    policy text NOT NULL,
                    state text NOT NULL,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz NOT NULL,
                    consumed_at timestamptz,
                    attempts bigint NOT NULL DEFAULT 0
                )
                """, logger: logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS verify_requests_expires_at ON verify_requests (expires_at)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS verify_vical_issues (provider text PRIMARY KEY, issue_id bigint NOT NULL)", logger: logger)
        }
    }

    /// Inserts a new pending request; throws when the database refuses it (e.g. a duplicate ID) or is unreachable.
    public func insert(_ request: StoredRequest) async throws {
        let policy = try StoredRequestColumns.encode(policy: request.policy)
        let state = try StoredRequestColumns.encode(state: request.state)
        try await client.query("""
            INSERT INTO verify_requests (id, format, policy, state, created_at, expires_at)
            VALUES (\(request.id), \(request.format.rawValue), \(policy), \(state), \(request.createdAt), \(request.expiresAt))
            """, logger: logger)
    }

    /// Counts an attempt on request `id` and empties its state in one statement, and says what it found, as of `now`.
    public func consume(id: String, now: Date) async throws -> ConsumeOutcome {
        let rows = try await client.query("""
            WITH old AS (SELECT id, state FROM verify_requests WHERE id = \(id) FOR UPDATE)
            UPDATE verify_requests AS r
            SET attempts = r.attempts + 1, consumed_at = COALESCE(r.consumed_at, \(now)), state = '{}'
            FROM old WHERE r.id = old.id
            RETURNING r.attempts, r.format, r.policy, old.state, r.created_at, r.expires_at
            """, logger: logger)
        var outcome = ConsumeOutcome.unknown
        for try await (attempts, format, policy, state, createdAt, expiresAt) in rows.decode((Int, String, String, String, Date, Date).self) {
            outcome = try ConsumeDecision.outcome(attempts: attempts, expiresAt: expiresAt, now: now, request: try {
                guard let format = VerificationReport.Format(rawValue: format) else { throw RequestStoreError("request \(id) has an unknown format") }
                return StoredRequest(id: id, format: format, policy: try StoredRequestColumns.decodePolicy(policy),
                                     state: try StoredRequestColumns.decodeState(state), createdAt: createdAt, expiresAt: expiresAt)
            }())
        }
        return outcome
    }

    /// The request `id` as stored, without consuming it; nil when there is none.
    public func lookup(id: String) async throws -> StoredRequest? {
        let rows = try await client.query(
            "SELECT format, policy, state, created_at, expires_at FROM verify_requests WHERE id = \(id)", logger: logger)
        var found: StoredRequest?
        for try await (format, policy, state, createdAt, expiresAt) in rows.decode((String, String, String, Date, Date).self) {
            guard let format = VerificationReport.Format(rawValue: format) else { throw RequestStoreError("request \(id) has an unknown format") }
            found = StoredRequest(id: id, format: format, policy: try StoredRequestColumns.decodePolicy(policy),
                                  state: try StoredRequestColumns.decodeState(state), createdAt: createdAt, expiresAt: expiresAt)
        }
        return found
    }

    /// Deletes requests that expired before `cutoff`; returns how many.
    public func purge(expiredBefore cutoff: Date) async throws -> Int {
        let rows = try await client.query("DELETE FROM verify_requests WHERE expires_at < \(cutoff) RETURNING id", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// Empties the state of requests that expired at or before `cutoff` and still hold one; returns how many.
    public func eraseState(expiredBefore cutoff: Date) async throws -> Int {
        let rows = try await client.query(
            "UPDATE verify_requests SET state = '{}' WHERE expires_at <= \(cutoff) AND state <> '{}' RETURNING id", logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    /// The highest accepted `vicalIssueID` per provider.
    public func vicalIssueIDs() async throws -> [String: UInt64] {
        let rows = try await client.query("SELECT provider, issue_id FROM verify_vical_issues", logger: logger)
        var ids: [String: UInt64] = [:]
        for try await (provider, id) in rows.decode((String, Int64).self) { ids[provider] = UInt64(max(id, 0)) }
        return ids
    }

    /// Raises `provider`'s remembered issue ID in one upsert (concurrent instances keep the highest).
    public func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        let id = Int64(clamping: issueID)
        try await client.query("""
            INSERT INTO verify_vical_issues (provider, issue_id) VALUES (\(provider), \(id))
            ON CONFLICT (provider) DO UPDATE SET issue_id = GREATEST(verify_vical_issues.issue_id, EXCLUDED.issue_id)
            """, logger: logger)
    }

    /// Succeeds when the database answers `SELECT 1`.
    public func ping() async throws {
        let rows = try await client.query("SELECT 1", logger: logger)
        for try await _ in rows {}
    }
}
