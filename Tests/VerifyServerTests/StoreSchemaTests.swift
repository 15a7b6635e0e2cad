import Foundation
import PostgresNIO
import SQLiteNIO
import Testing
import TestSupport
@testable import VerifyServer

/// The request store's schema: published as the statements the store runs, versioned, brought up to date by its owner
/// (`--migrate`); a PostgreSQL service role with only the published grants starts and serves on it, and not before.
@Suite("the request store's schema: published, versioned, migrated by its owner; a least-privilege role serves")
struct StoreSchemaTests {
    static var serviceURL: String? {
        ProcessInfo.processInfo.environment["VERIFY_SERVER_TEST_POSTGRES_SERVICE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Test("docs/schema.md publishes the statements prepare() runs, for both stores, and the service role's grants")
    func published() throws {
        let text = try String(contentsOf: VectorFiles.url("docs/schema.md"), encoding: .utf8)
        for dialect in ["postgres", "sqlite"] {
            let script = try #require(StoreSchema.script(dialect))
            #expect(text.contains("```sql\n" + script + "```"), "docs/schema.md differs from `verify-server --print-schema \(dialect)`")
        }
        for grant in StoreSchema.postgresGrants(role: "verify_service") {
            #expect(text.contains(grant + ";"), "\(grant)")
        }
        #expect(StoreSchema.script("mysql") == nil)
    }

    /// A new folder under the temporary directory; the caller removes it.
    static func scratchFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("SQLite: a file from before versions is brought to this one (columns, indexes, version); a newer version is refused")
    func sqliteVersions() async throws {
        let folder = try Self.scratchFolder("schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        // The first table as the first versions made it: no added columns, no other table.
        let old = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await old.query(try #require(StoreSchema.sqlite.first))
        try await old.close()

        var configuration = ServerConfiguration()
        configuration.store = .sqlite(path: path)
        #expect(try await configuration.migrateStore(logger: ServerFixture.quietLogger) == StoreSchema.version)
        let check = try await SQLiteConnection.open(storage: .file(path: path))
        let version = try await check.query("SELECT max(version) AS v FROM verify_schema_version").first?.column("v")?.integer
        #expect(version == StoreSchema.version)
        let columns = Set(try await check.query("PRAGMA table_info(verify_requests)").compactMap { $0.column("name")?.string })
        #expect(StoreSchema.sqliteAddedColumns.filter { $0.table == "verify_requests" }.allSatisfy { columns.contains($0.column) })
        _ = try await check.query("UPDATE verify_schema_version SET version = \(StoreSchema.version + 1)")
        try await check.close()

        let store = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        await #expect { try await store.prepare() } throws: { "\($0)".contains("newer than this verify-server's") }
        try await store.close()
    }

    @Test("SQLite at version 1: the outbox gains url (its queued event kept, with no destination of its own); version 2")
    func sqliteVersionOne() async throws {
        let folder = try Self.scratchFolder("schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v1.sqlite").path
        // Version 1 as it was: every table and the requests' columns, the outbox without url, an event queued.
        let old = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            for statement in StoreSchema.sqlite {
                _ = try await old.query(statement)
                for added in StoreSchema.sqliteAddedColumns where added.table == "verify_requests" && StoreSchema.createdTable(statement) == added.table {
                    _ = try await old.query("ALTER TABLE verify_requests ADD COLUMN \(added.column) \(added.type)")
                }
            }
            _ = try await old.query("UPDATE verify_schema_version SET version = 1")
            _ = try await old.query("INSERT INTO verify_webhooks (id, request_id, body, attempts, created_at, due_at) VALUES ('msg_a', 'a', '{}', 0, 1000, 1000)")
        } catch {
            try? await old.close()
            throw error
        }
        try await old.close()

        try await ServerFixture.withSQLite(path: path) { store in
            try await store.prepare()
            let events = try await store.claimWebhooks(now: Date(timeIntervalSince1970: 10), leaseUntil: Date(timeIntervalSince1970: 60), limit: 10)
            #expect(events.map(\.id) == ["msg_a"] && events.first?.url == nil)
        }
        let check = try await SQLiteConnection.open(storage: .file(path: path))
        #expect(try await check.query("SELECT max(version) AS v FROM verify_schema_version").first?.column("v")?.integer == 2)
        #expect(try await check.query("PRAGMA table_info(verify_webhooks)").contains { $0.column("name")?.string == "url" })
        try await check.close()
    }

    @Test("PostgreSQL at version 1: the outbox gains url (its queued event kept, with no destination of its own); version 2",
          .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgresVersionOne() async throws {
        try await TestPostgres.withStore { store in
            try await store.prepare()
            try await store.client.withConnection { connection in
                for statement in ["ALTER TABLE verify_webhooks DROP COLUMN url", "UPDATE verify_schema_version SET version = 1",
                                  "INSERT INTO verify_webhooks (id, request_id, body, attempts, created_at, due_at) VALUES ('msg_a', 'a', '{}', 0, to_timestamp(1), to_timestamp(1))"] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: ServerFixture.quietLogger)
                }
            }
            let before = try await store.client.withConnection { try await PostgresRequestStore.isCurrent($0, logger: ServerFixture.quietLogger) }
            #expect(!before)
            try await store.prepare()
            let events = try await store.claimWebhooks(now: Date(timeIntervalSince1970: 10), leaseUntil: Date(timeIntervalSince1970: 60), limit: 10)
            #expect(events.map(\.id) == ["msg_a"] && events.first?.url == nil)
            let (version, current) = try await store.client.withConnection { connection in
                (try await PostgresRequestStore.schemaVersion(connection, logger: ServerFixture.quietLogger),
                 try await PostgresRequestStore.isCurrent(connection, logger: ServerFixture.quietLogger))
            }
            #expect(version == 2 && current)
        }
    }

    @Test("verify-server --migrate brings the configured store to this version and says so; --print-schema prints it")
    func migrateCommand() throws {
        let folder = try Self.scratchFolder("migrate")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["--migrate"]
        process.environment = ["VERIFY_SERVER_STORE_URL": "sqlite:" + folder.appendingPathComponent("s.sqlite").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("schema at version \(StoreSchema.version)"), "\(text)")
        let refused = try ServerProcess.runToExit(environment: [:], arguments: ["--print-schema", "oracle"])
        #expect(refused.status == 2 && refused.stderr.contains("postgres or sqlite"))
        // A malformed store URL is refused, never replaced by the default SQLite file.
        let malformed = try ServerProcess.runToExit(environment: ["VERIFY_SERVER_STORE_URL": "mysql://db"], arguments: ["--migrate"])
        #expect(malformed.status == 2 && malformed.stderr.contains("store URL must start with"), "\(malformed.stderr)")
        // A PostgreSQL nobody answers at: one line naming why, exit 1, within storeTimeout (no pool retrying for ever).
        let closed = try #require(LoopbackPort.free())
        let unreachable = try ServerProcess.runToExit(environment: [
            "VERIFY_SERVER_STORE_URL": "postgres://owner@127.0.0.1:\(closed)/verify", "VERIFY_SERVER_STORE_TIMEOUT": "5",
        ], arguments: ["--migrate"])
        #expect(unreachable.status == 1, "\(unreachable.stderr)")
        #expect(unreachable.stderr == "verify-server: store postgres://owner@127.0.0.1:\(closed)/verify (sslmode=disable): nothing accepts "
                + "connections at 127.0.0.1:\(closed) (connection refused)\n", "\(unreachable.stderr)")
    }

    @Test("PostgreSQL: a role with only the published grants cannot make the schema (it is told to --migrate), starts and serves once the owner made it, and refuses a newer one",
          .enabled(if: TestPostgres.url != nil && serviceURL != nil, "needs VERIFY_SERVER_TEST_POSTGRES_URL and _SERVICE_URL (.ci/run sets both)"))
    func leastPrivilegeRole() async throws {
        let ownerURL = try #require(TestPostgres.url), serviceURL = try #require(Self.serviceURL)
        let logger = ServerFixture.quietLogger
        // A PostgreSQL client runs once: a store of its own for each step.
        func withStore(_ url: String, _ body: @escaping @Sendable (PostgresRequestStore) async throws -> Void) async throws {
            let store = PostgresRequestStore(location: try PostgresLocation(url: url), logger: logger)
            try await ServerFixture.withStore(store) { try await body(store) }
        }
        func asOwner(_ statements: [String]) async throws {
            try await withStore(ownerURL) { owner in
                try await owner.client.withConnection { connection in
                    for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                }
            }
        }
        // The service role's own schema (its search_path), owned by the database owner, empty.
        try await asOwner(["DROP SCHEMA IF EXISTS verify_service CASCADE", "CREATE SCHEMA verify_service",
                           "GRANT USAGE ON SCHEMA verify_service TO verify_service"])
        try await withStore(serviceURL) { service in
            await #expect { try await service.prepare() } throws: { "\($0)".contains("verify-server --migrate") && "\($0)".contains("42501") }
        }
        // The owner runs the published statements there, and the published grants.
        try await asOwner(["SET search_path TO verify_service"] + StoreSchema.postgres + StoreSchema.postgresGrants(role: "verify_service"))
        try await withStore(serviceURL) { service in
            try await RequestStoreTests.checkContract(service)
            try await WebhookOutboxTests.checkOutbox(service)
            try await service.recordVICALIssueID(provider: "schema-test", issueID: 1)
        }
        try await asOwner(["UPDATE verify_service.verify_schema_version SET version = 99"])
        try await withStore(serviceURL) { service in
            await #expect { try await service.prepare() } throws: { "\($0)".contains("version 99, newer than this verify-server's") }
        }
        try await asOwner(["DROP SCHEMA verify_service CASCADE"])
    }
}
