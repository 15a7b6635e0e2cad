/// The request store's schema as its statements: what `prepare()` runs (and `verify-server --migrate`, as the schema's
/// owner), what `verify-server --print-schema` prints and `docs/schema.md` publishes (a test keeps them equal), its
/// version, and the privileges a least-privilege service role needs once the owner made it.
public enum StoreSchema {
    /// The version `verify_schema_version` holds once the statements ran. 1: requests (with transactions, by-reference
    /// fetches and response codes), the accepted VICAL and LoTE marks, the webhook outbox. 2: an outbox event's own
    /// destination (`url`, a transaction's `webhookURL`).
    public static let version = 2

    /// The tables a service role reads and writes.
    public static let tables = ["verify_requests", "verify_vical_issues", "verify_webhooks"]

    /// PostgreSQL: each statement idempotent, run in order in one transaction under an advisory lock.
    public static let postgres: [String] = [
        """
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
        """,
        // Columns added since the table was first created: a table from an earlier version gains them here.
        """
        ALTER TABLE verify_requests ADD COLUMN IF NOT EXISTS client_secret_hash text,
            ADD COLUMN IF NOT EXISTS api_key_id text, ADD COLUMN IF NOT EXISTS result_status text,
            ADD COLUMN IF NOT EXISTS result_report text, ADD COLUMN IF NOT EXISTS fetched_at timestamptz,
            ADD COLUMN IF NOT EXISTS response_code_hash text
        """,
        "CREATE INDEX IF NOT EXISTS verify_requests_expires_at ON verify_requests (expires_at)",
        """
        CREATE INDEX IF NOT EXISTS verify_requests_open_by_key ON verify_requests (api_key_id, expires_at)
            WHERE consumed_at IS NULL
        """,
        "CREATE TABLE IF NOT EXISTS verify_vical_issues (provider text PRIMARY KEY, issue_id bigint NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS verify_webhooks (
            id text PRIMARY KEY,
            request_id text NOT NULL,
            body text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            created_at timestamptz NOT NULL,
            due_at timestamptz NOT NULL,
            lease_until timestamptz,
            url text
        )
        """,
        // Version 2: an outbox from version 1 gains the event's own destination.
        "ALTER TABLE verify_webhooks ADD COLUMN IF NOT EXISTS url text",
        "CREATE INDEX IF NOT EXISTS verify_webhooks_due_at ON verify_webhooks (due_at)",
        "CREATE TABLE IF NOT EXISTS verify_schema_version (version integer NOT NULL)",
        "DELETE FROM verify_schema_version WHERE version < \(version)",
        "INSERT INTO verify_schema_version (version) SELECT \(version) WHERE NOT EXISTS (SELECT 1 FROM verify_schema_version)",
    ]

    /// SQLite: the same tables (integer times in milliseconds), run in one transaction; `sqliteAddedColumns` are added
    /// to a table from an earlier version where missing (SQLite has no ADD COLUMN IF NOT EXISTS).
    public static let sqlite: [String] = [
        """
        CREATE TABLE IF NOT EXISTS verify_requests (
            id TEXT PRIMARY KEY,
            format TEXT NOT NULL,
            policy TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            consumed_at INTEGER,
            attempts INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX IF NOT EXISTS verify_requests_expires_at ON verify_requests (expires_at)",
        """
        CREATE INDEX IF NOT EXISTS verify_requests_open_by_key ON verify_requests (api_key_id, expires_at)
            WHERE consumed_at IS NULL
        """,
        "CREATE TABLE IF NOT EXISTS verify_vical_issues (provider TEXT PRIMARY KEY, issue_id INTEGER NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS verify_webhooks (
            id TEXT PRIMARY KEY,
            request_id TEXT NOT NULL,
            body TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            due_at INTEGER NOT NULL,
            lease_until INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS verify_webhooks_due_at ON verify_webhooks (due_at)",
        "CREATE TABLE IF NOT EXISTS verify_schema_version (version INTEGER NOT NULL)",
        "DELETE FROM verify_schema_version WHERE version < \(version)",
        "INSERT INTO verify_schema_version (version) SELECT \(version) WHERE NOT EXISTS (SELECT 1 FROM verify_schema_version)",
    ]

    /// The nullable columns added to a table since it was first created: `verify_requests` since version 0
    /// (transactions, requests fetched by reference), `verify_webhooks` in version 2. SQLite adds each where missing,
    /// right after the table's CREATE statement (before the indexes).
    public static let sqliteAddedColumns: [(table: String, column: String, type: String)] = [
        ("verify_requests", "client_secret_hash", "TEXT"), ("verify_requests", "api_key_id", "TEXT"),
        ("verify_requests", "result_status", "TEXT"), ("verify_requests", "result_report", "TEXT"),
        ("verify_requests", "fetched_at", "INTEGER"), ("verify_requests", "response_code_hash", "TEXT"),
        ("verify_webhooks", "url", "TEXT"),
    ]

    /// The table a statement creates (`CREATE TABLE IF NOT EXISTS name (`), or nil.
    static func createdTable(_ statement: String) -> String? {
        let prefix = "CREATE TABLE IF NOT EXISTS "
        guard statement.hasPrefix(prefix) else { return nil }
        return String(statement.dropFirst(prefix.count).prefix { $0 != " " && $0 != "(" })
    }

    /// PostgreSQL: what the owner grants a service role `role` that may not change the schema (it starts, serves and
    /// purges with these alone, once the schema is at `version`).
    public static func postgresGrants(role: String) -> [String] {
        ["GRANT SELECT, INSERT, UPDATE, DELETE ON \(tables.joined(separator: ", ")) TO \(role)",
         "GRANT SELECT ON verify_schema_version TO \(role)"]
    }

    /// The statements of `dialect` (`postgres` or `sqlite`) as a script, each ended by `;`; nil for another name.
    public static func script(_ dialect: String) -> String? {
        let statements: [String]
        switch dialect {
        case "postgres", "postgresql": statements = postgres
        case "sqlite":
            // A new file's: each table, then the columns added to it since, as prepare() runs them on an older file.
            statements = sqlite.flatMap { statement in
                [statement] + sqliteAddedColumns.filter { $0.table == createdTable(statement) }
                    .map { "ALTER TABLE \($0.table) ADD COLUMN \($0.column) \($0.type)" }
            }
        default: return nil
        }
        return statements.map { $0 + ";\n" }.joined(separator: "\n")
    }
}
