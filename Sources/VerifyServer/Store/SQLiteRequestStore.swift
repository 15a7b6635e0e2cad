import Verifier
import Foundation
import NIOConcurrencyHelpers
import Logging
import NIOPosix
import ServiceLifecycle
import SQLiteNIO

/// The embedded default request store: one SQLite file, created on first start, surviving restarts.
///
/// For one server process; several instances must share PostgreSQL instead.
///
/// All statements run on one dedicated thread, one operation at a time, each to its end (a caller that stops waiting
/// does not cut one short); an insert or consume left too little time before its deadline by its turn does nothing.
/// Consumption is one transaction that counts the attempt (`UPDATE … RETURNING`, which decides the single winner)
/// and empties the stored state. WAL journal with
/// `synchronous=FULL`: a consumed request stays consumed across a crash or power loss. `secure_delete` overwrites
/// what a statement removes, and each purge checkpoints and truncates the WAL file, so emptied state does not linger
/// in the files after the next purge.

public final class SQLiteRequestStore: RequestStore {
    /// The database file's path, or ":memory:" for a private in-memory database.
    public let path: String
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    /// One operation at a time, so no other statement runs inside a consumption's transaction.
    private let gate = SerialGate()
    /// How much sooner than the caller's deadline a write must be under way, at most (`StoreDeadline`): for its commit
    /// (an fsync) and its answer's way back.
    static let deadlineMargin: TimeInterval = 0.25
    private let closed = NIOLockedValueBox(false)

    private init(path: String, connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.path = path
        self.connection = connection
        self.threadPool = threadPool
    }

    /// Opens (creating if needed) the database file at `path`; ":memory:" opens a private in-memory database.
    ///
    /// Missing parent directories are created. Throws `RequestStoreError` when the database cannot be opened.
    public static func open(path: String, logger: Logger) async throws -> SQLiteRequestStore {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            let storage: SQLiteConnection.Storage
            if path == ":memory:" {
                storage = .memory
            } else {
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                storage = .file(path: path)
            }
            let connection = try await SQLiteConnection.open(
                storage: storage, threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            return SQLiteRequestStore(path: path, connection: connection, threadPool: threadPool)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw RequestStoreError("cannot open SQLite database \(path): \(error)")
        }
    }

    /// "sqlite".
    public var kind: String { "sqlite" }

    /// A service that closes the database when the service group shuts down.
    public var services: [any Service] { [SQLiteCloser(store: self)] }

    /// Sets WAL journaling (for files), `synchronous=FULL`, `secure_delete` and a busy timeout, and creates the
    /// `verify_requests` table and its expiry index if needed.
    public func prepare() async throws {
        try await serially { try await self.prepareSchema() }
    }

    private func prepareSchema() async throws {
        if path != ":memory:" {
            _ = try await connection.query("PRAGMA journal_mode=WAL")
        }
        _ = try await connection.query("PRAGMA synchronous=FULL")
        _ = try await connection.query("PRAGMA secure_delete=ON")
        _ = try await connection.query("PRAGMA busy_timeout=5000")
        // A schema that is all there needs no write lock: instances starting together on one file do not queue for it.
        guard try await !schemaComplete() else { return }
        // One transaction, one commit (with synchronous=FULL each statement on its own would sync the file).
        try await inTransaction { try await createSchema() }
    }

    /// Whether every table, index and column of `StoreSchema.sqlite` is there already, at this version; a newer
    /// version throws.
    private func schemaComplete() async throws -> Bool {
        let names = Set(try await connection.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")
            .compactMap { $0.column("name")?.string })
        if names.contains("verify_schema_version") {
            let version = try await connection.query("SELECT max(version) AS version FROM verify_schema_version").first?.column("version")?.integer
            if let version, version > StoreSchema.version {
                throw RequestStoreError("the store's schema is at version \(version), newer than this verify-server's (\(StoreSchema.version)); "
                    + "run a verify-server at least as new as the one that migrated it")
            }
            guard version == StoreSchema.version else { return false }
        }
        guard Self.schemaObjects.isSubset(of: names) else { return false }
        for table in Set(StoreSchema.sqliteAddedColumns.map(\.table)) {
            let columns = try await columns(of: table)
            guard StoreSchema.sqliteAddedColumns.allSatisfy({ $0.table != table || columns.contains($0.column) }) else { return false }
        }
        return true
    }

    private func columns(of table: String) async throws -> Set<String> {
        Set(try await connection.query("PRAGMA table_info(\(table))").compactMap { $0.column("name")?.string })
    }

    /// The tables and indexes of the schema.
    static let schemaObjects: Set<String> = [
        "verify_requests", "verify_requests_expires_at", "verify_requests_open_by_key", "verify_vical_issues", "verify_webhooks",
        "verify_webhooks_due_at", "verify_schema_version",
    ]

    /// `StoreSchema.sqlite`, with the columns an earlier version's table lacks added right after the table.
    private func createSchema() async throws {
        for statement in StoreSchema.sqlite {
            _ = try await connection.query(statement)
            guard let table = StoreSchema.createdTable(statement) else { continue }
            let columns = try await columns(of: table)
            for added in StoreSchema.sqliteAddedColumns where added.table == table && !columns.contains(added.column) {
                _ = try await connection.query("ALTER TABLE \(table) ADD COLUMN \(added.column) \(added.type)")
            }
        }
    }

    /// Inserts a new pending request; throws when the database refuses it (e.g. a duplicate ID), or when the
    /// operations queued before it leave too little time before `deadline` (then nothing is inserted).
    public func insert(_ request: StoredRequest, deadline: Date) async throws {
        let actBy = StoreDeadline.latestAction(before: deadline, margin: Self.deadlineMargin)
        let (policy, state) = (try StoredRequestColumns.encode(policy: request.policy), try StoredRequestColumns.encode(state: request.state))
        _ = try await serially {
            try RequestStoreError.checkDeadline(actBy)
            return try await self.connection.query(
                """
                INSERT INTO verify_requests (id, format, policy, state, created_at, expires_at, client_secret_hash, api_key_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(request.id), .text(request.format.rawValue), .text(policy), .text(state),
                 .integer(Self.milliseconds(request.createdAt)), .integer(Self.milliseconds(request.expiresAt)),
                 request.clientSecretHash.map { .text($0) } ?? .null, request.apiKeyID.map { .text($0) } ?? .null])
        }
    }

    /// Counts an attempt on request `id` and empties its state in one transaction, and says what it found, as of `now`;
    /// throws, changing nothing, when it would commit too close to `deadline`.
    public func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        let actBy = StoreDeadline.latestAction(before: deadline, margin: Self.deadlineMargin)
        // SQLite's RETURNING gives the new values, so the state is read by the counting statement (which leaves it
        // alone) and emptied by a second one, inside one transaction: one commit, and both or neither survive a crash.
        let rows = try await serially {
            // Checked before and once the write lock is held (BEGIN IMMEDIATE waits up to busy_timeout for another
            // process), and again just before COMMIT, so a consume queued behind slow operations does not act after
            // the caller stopped waiting for it.
            try RequestStoreError.checkDeadline(actBy)
            return try await self.inTransaction {
                try RequestStoreError.checkDeadline(actBy)
                let rows = try await self.connection.query("""
                    UPDATE verify_requests SET attempts = attempts + 1, consumed_at = COALESCE(consumed_at, ?2)
                    WHERE id = ?1 AND client_secret_hash IS ?3
                    RETURNING attempts, format, policy, state, created_at, expires_at, client_secret_hash, api_key_id
                    """, [.text(id), .integer(Self.milliseconds(now)), clientSecretHash.map { .text($0) } ?? .null])
                // A replay finds it empty already: nothing more to write.
                if let state = rows.first?.column("state")?.string, state != "{}" {
                    _ = try await self.connection.query("UPDATE verify_requests SET state = '{}' WHERE id = ?1", [.text(id)])
                }
                try RequestStoreError.checkDeadline(actBy)
                return rows
            }
        }
        guard let row = rows.first else { return .unknown }
        guard let attempts = row.column("attempts")?.integer, let expires = row.column("expires_at")?.integer else {
            throw RequestStoreError("verify_requests row has no attempts or expires_at")
        }
        return try ConsumeDecision.outcome(attempts: Int(attempts), expiresAt: Self.date(expires), now: now,
                                           request: try Self.request(id: id, row: row))
    }

    /// Marks request `id` fetched at `now` in one statement, unless it is fetched, consumed or expired.
    public func markFetched(id: String, now: Date) async throws -> Bool {
        let rows = try await serially { try await self.connection.query("""
            UPDATE verify_requests SET fetched_at = ?2
            WHERE id = ?1 AND fetched_at IS NULL AND attempts = 0 AND expires_at > ?2 RETURNING id
            """, [.text(id), .integer(Self.milliseconds(now))]) }
        return !rows.isEmpty
    }

    /// The request `id` as stored, without consuming it; nil when there is none.
    public func lookup(id: String) async throws -> StoredRequest? {
        let rows = try await serially { try await self.connection.query(
            """
            SELECT format, policy, state, created_at, expires_at, client_secret_hash, api_key_id, result_status, result_report,
                   fetched_at, response_code_hash
            FROM verify_requests WHERE id = ?1
            """, [.text(id)]) }
        return try rows.first.map { try Self.request(id: id, row: $0) }
    }

    /// Keeps the result of consumed request `id` unless one is kept already, and then queues `webhook`, in one
    /// transaction.
    public func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        try await serially {
            try await self.inTransaction {
                let kept = try await self.connection.query("""
                    UPDATE verify_requests SET result_status = ?2, result_report = ?3, response_code_hash = ?4
                    WHERE id = ?1 AND attempts > 0 AND result_status IS NULL RETURNING id
                    """, [.text(id), .text(result.status), .text(result.report), result.responseCodeHash.map { .text($0) } ?? .null])
                if let webhook, !kept.isEmpty {
                    _ = try await self.connection.query("""
                        INSERT OR IGNORE INTO verify_webhooks (id, request_id, body, attempts, created_at, due_at, url)
                        VALUES (?1, ?2, ?3, 0, ?4, ?4, ?5)
                        """, [.text(webhook.id), .text(webhook.requestId), .text(webhook.body),
                               .integer(Self.milliseconds(webhook.createdAt)), webhook.url.map { .text($0) } ?? .null])
                }
            }
        }
    }

    /// Leases the due events, oldest first.
    public func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        let rows = try await serially { try await self.connection.query("""
            UPDATE verify_webhooks SET lease_until = ?3
            WHERE id IN (SELECT id FROM verify_webhooks WHERE due_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)
                         ORDER BY created_at LIMIT ?2)
            RETURNING id, request_id, body, attempts, created_at, url
            """, [.integer(Self.milliseconds(now)), .integer(limit), .integer(Self.milliseconds(leaseUntil))]) }
        return rows.compactMap { row -> WebhookEvent? in
            guard let id = row.column("id")?.string, let requestId = row.column("request_id")?.string,
                  let body = row.column("body")?.string, let attempts = row.column("attempts")?.integer,
                  let created = row.column("created_at")?.integer else { return nil }
            var event = WebhookEvent(id: id, requestId: requestId, body: body, attempts: attempts, createdAt: Self.date(created))
            event.url = row.column("url")?.string
            return event
        }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Reschedules a leased event, or removes it.
    public func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws {
        _ = try await serially {
            guard let retryAt else {
                return try await self.connection.query("DELETE FROM verify_webhooks WHERE id = ?1", [.text(id)])
            }
            return try await self.connection.query(
                "UPDATE verify_webhooks SET attempts = ?2, due_at = ?3, lease_until = NULL WHERE id = ?1",
                [.text(id), .integer(attempts), .integer(Self.milliseconds(retryAt))])
        }
    }

    /// The key's transactions neither consumed nor expired.
    public func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding {
        let rows = try await serially {
            try await self.connection.query("""
                SELECT COUNT(*) AS open, MIN(expires_at) AS earliest FROM verify_requests
                WHERE api_key_id = ?1 AND consumed_at IS NULL AND expires_at > ?2
                """, [.text(apiKeyID), .integer(Self.milliseconds(now))])
        }
        return KeyOutstanding(count: rows.first?.column("open")?.integer ?? 0,
                              earliestExpiry: rows.first?.column("earliest")?.integer.map { Self.date($0) })
    }

    /// The waiting events.
    public func webhookBacklog() async throws -> WebhookBacklog {
        let rows = try await serially {
            try await self.connection.query("SELECT COUNT(*) AS waiting, MIN(created_at) AS oldest FROM verify_webhooks")
        }
        return WebhookBacklog(count: rows.first?.column("waiting")?.integer ?? 0,
                              oldest: rows.first?.column("oldest")?.integer.map { Self.date($0) })
    }

    /// Deletes outbox events queued before `cutoff`; returns how many.
    public func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int {
        try await serially {
            try await self.connection.query("DELETE FROM verify_webhooks WHERE created_at < ?1 RETURNING id",
                                            [.integer(Self.milliseconds(cutoff))]).count
        }
    }

    /// Deletes requests that expired before `cutoff`, then checkpoints and truncates the WAL file; returns how many.
    public func purge(expiredBefore cutoff: Date) async throws -> Int {
        try await serially {
            let rows = try await self.connection.query(
                "DELETE FROM verify_requests WHERE expires_at < ? RETURNING id", [.integer(Self.milliseconds(cutoff))])
            // Old page images (with state emptied since) stay in the WAL file until a checkpoint truncates it.
            if self.path != ":memory:" { _ = try await self.connection.query("PRAGMA wal_checkpoint(TRUNCATE)") }
            return rows.count
        }
    }

    /// Empties the state of requests that expired at or before `cutoff` and still hold one; returns how many.
    public func eraseState(expiredBefore cutoff: Date) async throws -> Int {
        try await serially {
            try await self.connection.query(
                "UPDATE verify_requests SET state = '{}' WHERE expires_at <= ? AND state <> '{}' RETURNING id",
                [.integer(Self.milliseconds(cutoff, rounding: .down))]).count
        }
    }

    /// The highest accepted `vicalIssueID` per provider.
    public func vicalIssueIDs() async throws -> [String: UInt64] {
        let rows = try await serially { try await self.connection.query("SELECT provider, issue_id FROM verify_vical_issues") }
        var ids: [String: UInt64] = [:]
        for row in rows {
            if let provider = row.column("provider")?.string, let id = row.column("issue_id")?.integer { ids[provider] = UInt64(max(id, 0)) }
        }
        return ids
    }

    /// Raises `provider`'s remembered issue ID (never lowers it).
    public func recordVICALIssueID(provider: String, issueID: UInt64) async throws {
        _ = try await serially { try await self.connection.query("""
            INSERT INTO verify_vical_issues (provider, issue_id) VALUES (?1, ?2)
            ON CONFLICT(provider) DO UPDATE SET issue_id = MAX(issue_id, excluded.issue_id)
            """, [.text(provider), .integer(Int(clamping: issueID))]) }
    }

    /// Succeeds when the database answers `SELECT 1`.
    public func ping() async throws {
        _ = try await serially { try await self.connection.query("SELECT 1") }
    }

    /// Closes the database and its thread.
    ///
    /// Closing twice does nothing (a server that fails to start closes its store itself, then its closer runs).
    public func close() async throws {
        let first = closed.withLockedValue { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        try await serially { try await self.connection.close() }
        try await threadPool.shutdownGracefully()
    }

    /// Runs `body` through the gate in a task of its own, which the caller's cancellation does not reach: a cancelled
    /// caller (the server's time limit cancels the store call it stops waiting for) would make SQLiteNIO skip the
    /// statements still to come, such as the ROLLBACK after a failed step, and leave a transaction open for good.
    private func serially<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await self.gate.run(body) }.value
    }

    /// Runs `body` in a write transaction: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK when `body` or the COMMIT throws.
    private func inTransaction<T>(_ body: () async throws -> T) async throws -> T {
        _ = try await connection.query("BEGIN IMMEDIATE")
        do {
            let result = try await body()
            _ = try await connection.query("COMMIT")
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw error
        }
    }

    // MARK: Rows

    private static func request(id: String, row: SQLiteRow) throws -> StoredRequest {
        guard let format = row.column("format")?.string, let policy = row.column("policy")?.string, let state = row.column("state")?.string,
              let created = row.column("created_at")?.integer, let expires = row.column("expires_at")?.integer
        else { throw RequestStoreError("verify_requests row \(id) is incomplete") }
        return try StoredRequestColumns.request(
            id: id, format: format, policy: policy, state: state, createdAt: date(created), expiresAt: date(expires),
            clientSecretHash: row.column("client_secret_hash")?.string, apiKeyID: row.column("api_key_id")?.string,
            resultStatus: row.column("result_status")?.string, resultReport: row.column("result_report")?.string,
            responseCodeHash: row.column("response_code_hash")?.string, fetchedAt: row.column("fetched_at")?.integer.map { date($0) })
    }

    /// Rounded down for an erase cutoff: a request is erased only once `consume` would call it expired.
    static func milliseconds(_ date: Date, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> SQLiteInt64 {
        SQLiteInt64((date.timeIntervalSince1970 * 1000).rounded(rounding))
    }
    static func date(_ milliseconds: some BinaryInteger) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

/// Closes the SQLite file when the service group shuts down (after the HTTP server has drained).
struct SQLiteCloser: Service {
    let store: SQLiteRequestStore

    func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
    }
}
