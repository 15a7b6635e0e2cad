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
///
/// Inserts and consumes act only while PostgreSQL's `clock_timestamp()` is before the caller's deadline, checked in
/// the statement itself (for a consume, once the row lock is held), and the statement commits on its own: a query that
/// reaches a hung or locked database and runs after the caller gave up changes nothing. Errors name PostgreSQL's
/// SQLSTATE and message.
public final class PostgresRequestStore: RequestStore {
    /// The PostgresNIO connection pool; it runs as one of `services`.
    public let client: PostgresClient
    private let logger: Logger
    /// How much sooner than the caller's deadline PostgreSQL must act, at most (`StoreDeadline`): for the answer's
    /// way back, and for the difference between this host's clock and the database's.
    static let deadlineMargin: TimeInterval = 1

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

    /// Brings the schema to `StoreSchema.version`: runs `StoreSchema.postgres` unless the schema is complete already.
    ///
    /// Instances starting together serialize on a PostgreSQL advisory lock. A complete schema is left alone: `ALTER
    /// TABLE … ADD COLUMN IF NOT EXISTS` and `CREATE INDEX IF NOT EXISTS` lock the table even when there is nothing to
    /// do, which would stall the other instances' requests during a rolling restart; and a least-privilege role (only
    /// `StoreSchema.postgresGrants`) starts on a schema its owner made (`verify-server --migrate`). A schema newer than
    /// this build's is refused.
    public func prepare() async throws {
        do {
            try await prepareSchema()
        } catch let error as RequestStoreError {
            throw error
        } catch let error as PostgresTransactionError where error.closureError is RequestStoreError {
            throw error.closureError ?? error
        } catch where Self.sqlState(error) == "42501" {
            throw RequestStoreError("this role may not read or bring the store's schema to version \(StoreSchema.version) "
                + "(\(Self.describing(error))): run `verify-server --migrate` as the schema's owner and grant the service's role "
                + "what docs/schema.md lists")
        } catch {
            throw RequestStoreError(Self.describing(error))
        }
    }

    /// The SQLSTATE of PostgreSQL's error, also inside a failed transaction.
    static func sqlState(_ error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        guard let error = error as? PostgresTransactionError else { return nil }
        return [error.beginError, error.closureError, error.commitError].compactMap { $0.flatMap(sqlState) }.first
    }

    /// Checks first without a lock (a current schema, the usual start, waits for no other instance), then, when there
    /// is something to do, again under the advisory lock before running the statements.
    private func prepareSchema() async throws {
        if try await client.withConnection({ try await Self.isCurrent($0, logger: logger) }) { return }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7226134011)", logger: logger)
            guard try await !Self.isCurrent(connection, logger: logger) else { return }
            for statement in StoreSchema.postgres {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    /// Whether the schema is complete at `StoreSchema.version`; throws for a newer version.
    static func isCurrent(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let version = try await schemaVersion(connection, logger: logger)
        if let version, version > StoreSchema.version {
            throw RequestStoreError("the store's schema is at version \(version), newer than this verify-server's "
                + "(\(StoreSchema.version)); run a verify-server at least as new as the one that migrated it")
        }
        guard version == StoreSchema.version else { return false }
        return try await value(schemaComplete, Bool.self, on: connection, logger: logger) ?? false
    }

    /// The version `verify_schema_version` holds; nil before the table exists (a schema from before versions, or none).
    static func schemaVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let exists = try await value("SELECT to_regclass('verify_schema_version') IS NOT NULL", Bool.self, on: connection, logger: logger)
        guard exists == true else { return nil }
        return try await value("SELECT max(version) FROM verify_schema_version", Int?.self, on: connection, logger: logger) ?? nil
    }

    /// The one column of the last row `query` returns on `connection`; nil when it returns none.
    private static func value<T: PostgresDecodable>(_ query: PostgresQuery, _ type: T.Type, on connection: PostgresConnection,
                                                    logger: Logger) async throws -> T? {
        try await connection.query(query, logger: logger).collect().last?.decode(T.self)
    }

    /// True when every table, column and index of `StoreSchema.postgres` is there.
    static let schemaComplete: PostgresQuery = """
        SELECT (SELECT count(*) FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'verify_requests'
                  AND column_name IN ('client_secret_hash', 'api_key_id', 'result_status', 'result_report', 'fetched_at',
                                      'response_code_hash')) = 6
           AND to_regclass('verify_requests_expires_at') IS NOT NULL
           AND to_regclass('verify_requests_open_by_key') IS NOT NULL
           AND to_regclass('verify_vical_issues') IS NOT NULL
           AND to_regclass('verify_webhooks_due_at') IS NOT NULL
           AND EXISTS (SELECT 1 FROM information_schema.columns
                       WHERE table_schema = current_schema() AND table_name = 'verify_webhooks' AND column_name = 'url')
        """

    /// Inserts a new pending request if PostgreSQL gets to it in time for `deadline`; throws when the database refuses
    /// it (e.g. a duplicate ID), is unreachable, or got to it too late (then nothing is inserted).
    public func insert(_ request: StoredRequest, deadline: Date) async throws {
        let actBy = StoreDeadline.latestAction(before: deadline, margin: Self.deadlineMargin)
        let policy = try StoredRequestColumns.encode(policy: request.policy)
        let state = try StoredRequestColumns.encode(state: request.state)
        let inserted = try await count("""
            INSERT INTO verify_requests (id, format, policy, state, created_at, expires_at, client_secret_hash, api_key_id)
            SELECT \(request.id), \(request.format.rawValue), \(policy), \(state), \(request.createdAt), \(request.expiresAt),
                   \(request.clientSecretHash), \(request.apiKeyID)
            WHERE clock_timestamp() < \(actBy)
            RETURNING id
            """)
        guard inserted == 1 else { throw RequestStoreError.deadlinePassed }
    }

    /// Counts an attempt on request `id` and empties its state in one statement, and says what it found, as of `now`;
    /// changes nothing, and throws, when PostgreSQL holds the row's lock too late for `deadline`.
    public func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        let actBy = StoreDeadline.latestAction(before: deadline, margin: Self.deadlineMargin)
        // PostgreSQL's text cannot hold NUL: no request has such an ID or hash (the query would fail, as a 503).
        guard !id.utf8.contains(0), clientSecretHash?.utf8.contains(0) != true else { return .unknown }
        // The deadline is a join filter of the UPDATE, evaluated on the row `old` returns, i.e. once its lock is held
        // (a plain WHERE would be checked before waiting for the lock). The outer join always returns one row, whose
        // `in_time` tells a late statement from an unknown ID when the UPDATE returned nothing.
        let rows = try await Self.naming {
            try await client.query("""
                WITH old AS (SELECT id, state FROM verify_requests
                             WHERE id = \(id) AND client_secret_hash IS NOT DISTINCT FROM \(clientSecretHash) FOR UPDATE),
                done AS (
                    UPDATE verify_requests AS r
                    SET attempts = r.attempts + 1, consumed_at = COALESCE(r.consumed_at, \(now)), state = '{}'
                    FROM old WHERE r.id = old.id AND clock_timestamp() < \(actBy)
                    RETURNING r.attempts, r.format, r.policy, old.state, r.created_at, r.expires_at, r.api_key_id)
                SELECT done.attempts, done.format, done.policy, done.state, done.created_at, done.expires_at,
                       clock_timestamp() < \(actBy) AS in_time, done.api_key_id
                FROM (VALUES (1)) AS one LEFT JOIN done ON true
                """, logger: logger)
        }
        var outcome = ConsumeOutcome.unknown
        try await Self.naming {
            for try await row in rows.decode((Int?, String?, String?, String?, Date?, Date?, Bool, String?).self) {
                guard let attempts = row.0, let format = row.1, let policy = row.2, let state = row.3,
                      let createdAt = row.4, let expiresAt = row.5 else {
                    guard row.6 else { throw RequestStoreError.deadlinePassed }
                    continue
                }
                outcome = try ConsumeDecision.outcome(attempts: attempts, expiresAt: expiresAt, now: now, request: try StoredRequestColumns.request(
                    id: id, format: format, policy: policy, state: state, createdAt: createdAt, expiresAt: expiresAt,
                    clientSecretHash: clientSecretHash, apiKeyID: row.7))
            }
        }
        return outcome
    }

    /// Marks request `id` fetched at `now` in one statement, unless it is fetched, consumed or expired.
    public func markFetched(id: String, now: Date) async throws -> Bool {
        guard !id.utf8.contains(0) else { return false }
        return try await count("""
            UPDATE verify_requests SET fetched_at = \(now)
            WHERE id = \(id) AND fetched_at IS NULL AND attempts = 0 AND expires_at > \(now) RETURNING id
            """) == 1
    }

    /// The request `id` as stored, without consuming it; nil when there is none.
    public func lookup(id: String) async throws -> StoredRequest? {
        guard !id.utf8.contains(0) else { return nil }
        return try await Self.naming {
            let rows = try await client.query("""
                SELECT format, policy, state, created_at, expires_at, client_secret_hash, api_key_id, result_status, result_report,
                       fetched_at, response_code_hash
                FROM verify_requests WHERE id = \(id)
                """, logger: logger).collect()
            return try rows.last.map { row in
                let (format, policy, state, createdAt, expiresAt, secretHash, keyID, status, report, fetchedAt, codeHash)
                    = try row.decode((String, String, String, Date, Date, String?, String?, String?, String?, Date?, String?).self)
                return try StoredRequestColumns.request(id: id, format: format, policy: policy, state: state, createdAt: createdAt,
                                                        expiresAt: expiresAt, clientSecretHash: secretHash, apiKeyID: keyID, resultStatus: status,
                                                        resultReport: report, responseCodeHash: codeHash, fetchedAt: fetchedAt)
            }
        }
    }

    /// Keeps the result of consumed request `id` unless one is kept already, and then queues `webhook`, in one
    /// statement.
    public func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        guard !id.utf8.contains(0) else { return }
        guard let webhook else {
            try await count("""
                UPDATE verify_requests SET result_status = \(result.status), result_report = \(result.report),
                    response_code_hash = \(result.responseCodeHash)
                WHERE id = \(id) AND attempts > 0 AND result_status IS NULL RETURNING id
                """)
            return
        }
        try await count("""
            WITH kept AS (UPDATE verify_requests SET result_status = \(result.status), result_report = \(result.report),
                              response_code_hash = \(result.responseCodeHash)
                          WHERE id = \(id) AND attempts > 0 AND result_status IS NULL RETURNING id)
            INSERT INTO verify_webhooks (id, request_id, body, attempts, created_at, due_at, url)
            SELECT \(webhook.id), \(webhook.requestId), \(webhook.body), 0, \(webhook.createdAt), \(webhook.createdAt), \(webhook.url) FROM kept
            ON CONFLICT (id) DO NOTHING RETURNING id
            """)
    }

    /// Leases the due events, oldest first; rows another instance is leasing at the same moment are skipped.
    public func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        try await Self.naming {
            let rows = try await client.query("""
                UPDATE verify_webhooks SET lease_until = \(leaseUntil)
                WHERE id IN (SELECT id FROM verify_webhooks WHERE due_at <= \(now) AND (lease_until IS NULL OR lease_until <= \(now))
                             ORDER BY created_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING id, request_id, body, attempts, created_at, url
                """, logger: logger).collect()
            return try rows.map { row in
                let (id, requestId, body, attempts, created, url) = try row.decode((String, String, String, Int, Date, String?).self)
                var event = WebhookEvent(id: id, requestId: requestId, body: body, attempts: attempts, createdAt: created)
                event.url = url
                return event
            }.sorted { $0.createdAt < $1.createdAt }
        }
    }

    /// Reschedules a leased event, or removes it.
    public func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws {
        guard let retryAt else {
            try await count("DELETE FROM verify_webhooks WHERE id = \(id) RETURNING id")
            return
        }
        try await count("""
            UPDATE verify_webhooks SET attempts = \(attempts), due_at = \(retryAt), lease_until = NULL WHERE id = \(id) RETURNING id
            """)
    }

    /// The key's transactions neither consumed nor expired.
    public func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding {
        try await Self.naming {
            let row = try await client.query("""
                SELECT COUNT(*), MIN(expires_at) FROM verify_requests
                WHERE api_key_id = \(apiKeyID) AND consumed_at IS NULL AND expires_at > \(now)
                """, logger: logger).collect().last?.decode((Int, Date?).self)
            return KeyOutstanding(count: row?.0 ?? 0, earliestExpiry: row?.1)
        }
    }

    /// The waiting events.
    public func webhookBacklog() async throws -> WebhookBacklog {
        try await Self.naming {
            let row = try await client.query("SELECT COUNT(*), MIN(created_at) FROM verify_webhooks", logger: logger).collect().last?
                .decode((Int, Date?).self)
            return WebhookBacklog(count: row?.0 ?? 0, oldest: row?.1)
        }
    }

    /// Deletes outbox events queued before `cutoff`; returns how many.
    public func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int {
        try await count("DELETE FROM verify_webhooks WHERE created_at < \(cutoff) RETURNING id")
    }

    /// Deletes requests that expired before `cutoff`; returns how many.
    public func purge(expiredBefore cutoff: Date) async throws -> Int {
        try await count("DELETE FROM verify_requests WHERE expires_at < \(cutoff) RETURNING id")
    }

    /// Empties the state of requests that expired at or before `cutoff` and still hold one; returns how many.
    public func eraseState(expiredBefore cutoff: Date) async throws -> Int {
        try await count("UPDATE verify_requests SET state = '{}' WHERE expires_at <= \(cutoff) AND state <> '{}' RETURNING id")
    }

    /// The highest accepted `vicalIssueID` per provider.
    public func vicalIssueIDs() async throws -> [String: UInt64] {
        try await Self.naming {
            let rows = try await client.query("SELECT provider, issue_id FROM verify_vical_issues", logger: logger).decode((String, Int64).self)
            return try await rows.reduce(into: [:]) { ids, row in ids[row.0] = UInt64(max(row.1, 0)) }
        }
    }

    /// Raises `provider`'s remembered issue ID in one upsert (concurrent instances keep the highest).
    public func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        let id = Int64(clamping: issueID)
        try await Self.naming {
            try await client.query("""
                INSERT INTO verify_vical_issues (provider, issue_id) VALUES (\(provider), \(id))
                ON CONFLICT (provider) DO UPDATE SET issue_id = GREATEST(verify_vical_issues.issue_id, EXCLUDED.issue_id)
                """, logger: logger)
        }
    }

    /// Succeeds when the database answers `SELECT 1`.
    public func ping() async throws {
        try await count("SELECT 1")
    }

    /// Runs `query` and counts the rows it returns.
    @discardableResult
    private func count(_ query: PostgresQuery) async throws -> Int {
        try await Self.naming {
            try await client.query(query, logger: logger).reduce(0) { count, _ in count + 1 }
        }
    }

    /// Runs `body`, turning PostgresNIO's errors (whose descriptions say only "Generic description") into a
    /// `RequestStoreError` that names the cause.
    @discardableResult
    private static func naming<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RequestStoreError {
            throw error
        } catch {
            throw RequestStoreError(describing(error))
        }
    }

    /// What went wrong, named: for PostgresNIO's errors the cause, otherwise the error's description.
    static func describing(_ error: any Error) -> String {
        switch error {
        case let error as PSQLError:
            return describing(error)
        case let error as PostgresDecodingError:
            return "PostgreSQL column \(error.columnName) (\(error.postgresType)) does not decode as \(error.targetType): \(error.code)"
        case let error as PostgresTransactionError:
            let steps: [(String, (any Error)?)] = [("BEGIN", error.beginError), ("transaction", error.closureError),
                                                   ("COMMIT", error.commitError), ("ROLLBACK", error.rollbackError)]
            let failed = steps.compactMap { step, error in error.map { "\(step): \(describing($0))" } }
            return failed.isEmpty ? "PostgreSQL transaction failed" : failed.joined(separator: "; ")
        default:
            return String(describing: error)
        }
    }

    /// PostgreSQL's SQLSTATE, severity and message for a server error (not its detail, which can quote values); for
    /// others PostgresNIO's code and the underlying error (e.g. the connection's).
    static func describing(_ error: PSQLError) -> String {
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            return "PostgreSQL \(info[.severity] ?? "ERROR") SQLSTATE \(state): \(info[.message] ?? "(no message)")"
        }
        // The underlying error can be PostgreSQL's own (a connection closed on a FATAL, as in a fast shutdown): named too.
        let underlying = error.underlying.map { ": \(describing($0))" } ?? ""
        return "PostgreSQL connection \(error.code)\(underlying)"
    }
}
