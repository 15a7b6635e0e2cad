import Foundation
import LoopbackClient
import Logging
import PostgresNIO
import SQLiteNIO
import Synchronization
import Testing
import TestSupport
import VerifyServer

/// A hung database, made deterministic: a second connection holds the lock the server's statement needs, for longer
/// than `storeTimeout`, then lets go. The server must answer 503 within `storeTimeout` (not when the lock goes), and
/// the statement it left behind must not act when it finally runs: the request stays unconsumed (the retry verifies)
/// and a create that got 503 leaves no row. Serialized: a test's table lock would stall the others' servers.
@Suite("verify-server on a hung PostgreSQL: a 503 is bounded by storeTimeout and consumes or creates nothing",
       .serialized, .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
struct HungStoreTests {
    /// Short, yet long enough for the server's schema step at start while other suites use the same database.
    static let storeTimeout: TimeInterval = 2
    /// How much later than `storeTimeout` the 503 may come (HTTP and scheduling, with every other suite running on
    /// two cores); the lock is held until the answer comes or this has passed too, so an answer that waited for the
    /// lock comes after it either way.
    static let slack: Duration = .seconds(4)

    @Test("verify while the request's row is locked: 503 within storeTimeout; after the lock goes the request is unconsumed and the retry verifies (200)")
    func lockedRow() async throws {
        try await Self.withServer(logger: ServerFixture.quietLogger) { server, raw in
            let request = AppleSample.request()
            try await raw.insert(request)
            let held = try await Self.holding("SELECT id FROM verify_requests WHERE id = \(request.id) FOR UPDATE", in: raw) {
                try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            }
            #expect(held.blocked, "the server's consume never waited for the row lock")
            #expect(held.answeredWhileLocked, "the server answered only once the lock was gone")
            #expect(held.answer.status == 503, "\(held.answer.text)")
            #expect(try errorCode(held.answer) == "store.unavailable")
            #expect(held.elapsed < .seconds(Self.storeTimeout) + Self.slack, "the 503 came after \(held.elapsed)")

            #expect(try await raw.lookup(id: request.id)?.state == request.state, "the 503 emptied the request's state")
            #expect(try await Self.attempts(request.id, in: raw) == 0, "the 503 counted an attempt")
            let retry = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(retry.status == 200, "\(retry.text)")
            let replay = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(replay.status == 409)
        }
    }

    @Test("create while the table is locked: 503 within storeTimeout; after the lock goes no row was inserted")
    func lockedTable() async throws {
        try await Self.withServer(logger: ServerFixture.quietLogger) { server, raw in
            // An element name no other request asks for, so this test finds its own rows in a shared table.
            let marker = "hung_\(UUID().uuidString.lowercased().prefix(8))"
            let body = """
                {"format":"apple-app","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true,"\(marker)":false}}}]}
                """
            let held = try await Self.holding("LOCK TABLE verify_requests IN ACCESS EXCLUSIVE MODE", in: raw) {
                try await server.client.post("/v1/requests", json: body)
            }
            #expect(held.blocked, "the server's insert never waited for the table lock")
            #expect(held.answeredWhileLocked, "the server answered only once the lock was gone")
            #expect(held.answer.status == 503, "\(held.answer.text)")
            #expect(try errorCode(held.answer) == "store.unavailable")
            #expect(held.elapsed < .seconds(Self.storeTimeout) + Self.slack, "the 503 came after \(held.elapsed)")
            #expect(try await Self.rows(marker: marker, in: raw) == 0, "the create that got 503 inserted its row")

            let created = try await server.client.post("/v1/requests", json: body)
            #expect(created.status == 201, "\(created.text)")
            #expect(try await Self.rows(marker: marker, in: raw) == 1)
        }
    }

    @Test("a consume whose backend PostgreSQL terminates (57P01): 503, the log names the SQLSTATE and message, the request is unconsumed")
    func terminatedBackend() async throws {
        let log = CapturedLogs()
        try await Self.withServer(logger: log.logger) { server, raw in
            let request = AppleSample.request()
            try await raw.insert(request)
            let held = try await Self.holding("SELECT id FROM verify_requests WHERE id = \(request.id) FOR UPDATE", in: raw,
                                              whileBlocked: { backends in
                for pid in backends {
                    try await raw.client.query("SELECT pg_terminate_backend(\(pid))", logger: ServerFixture.quietLogger)
                }
            }) {
                try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            }
            #expect(held.blocked, "the server's consume never waited for the row lock")
            #expect(held.answer.status == 503, "\(held.answer.text)")
            #expect(try errorCode(held.answer) == "store.unavailable")
            #expect(try await raw.lookup(id: request.id)?.state == request.state, "the 503 emptied the request's state")
            let retry = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(retry.status == 200, "\(retry.text)")
        }
        // The cause, not PostgresNIO's "Generic description" (which only its own debug lines still show).
        let shown = log.messages.filter { !$0.hasPrefix("debug") && !$0.hasPrefix("trace") }
        #expect(shown.contains { $0.contains("request store consume failed")
            && $0.contains("SQLSTATE 57P01: terminating connection due to administrator command") }, "\(shown)")
        #expect(!shown.contains { $0.contains("Generic description") }, "\(shown)")
    }

    @Test("PostgreSQL errors name their SQLSTATE and message: a duplicate ID (23505)")
    func namedErrors() async throws {
        let url = try #require(TestPostgres.url)
        let raw = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
        try await ServerFixture.withStore(raw) {
            try await raw.prepare()
            let request = AppleSample.request()
            try await raw.insert(request)
            let error = await #expect(throws: RequestStoreError.self) { try await raw.insert(request) }
            let message = error?.message ?? ""
            #expect(message.contains("SQLSTATE 23505"), "\(message)")
            #expect(message.contains("duplicate key value violates unique constraint"), "\(message)")
            #expect(!message.contains(request.id), "the message quotes the key")
        }
    }

    @Test("a requestId holding NUL, which PostgreSQL text cannot hold, is unknown (404), not a store failure (503)")
    func nulID() async throws {
        try await Self.withServer(logger: ServerFixture.quietLogger) { server, _ in
            let answer = try await server.client.post("/v1/verify", json: AppleSample.verifyBody("a\u{0}b"))
            #expect(answer.status == 404, "\(answer.text)")
            #expect(try errorCode(answer) == "nonce.unknown")
        }
    }

    // MARK: Helpers

    /// A server on the test PostgreSQL with a short `storeTimeout`, and a store of the test's own on the same database.
    static func withServer(logger: Logger, _ body: @Sendable (RunningServer, PostgresRequestStore) async throws -> Void) async throws {
        let url = try #require(TestPostgres.url)
        var settings = AppleSample.configuration(store: .postgres(url: url))
        settings.storeTimeout = storeTimeout
        let configuration = settings
        let raw = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
        try await ServerFixture.withStore(raw) {
            try await raw.prepare()
            // The server's schema step at start is bounded by the short storeTimeout too, and can outlast it while every
            // other suite uses the database on two cores: a server that did not start is started again.
            try await ServerFixture.withServerStartedAgain(configuration, logger: logger) { server in try await body(server, raw) }
        }
    }

    /// What happened while a lock was held.
    struct Held {
        /// The server's answer.
        var answer: LoopbackHTTPClient.Response
        /// How long it took.
        var elapsed: Duration
        /// Whether a statement of another connection waited for the lock.
        var blocked: Bool
        /// Whether the answer came while the lock was still held.
        var answeredWhileLocked: Bool
    }

    /// Holds the lock `statement` takes, in a transaction of its own, while `call` runs: until `call` answers or
    /// `storeTimeout` plus the slack has passed, whichever comes first (`whileBlocked` runs once statements wait for
    /// the lock). Then lets go, and waits until the statements that waited for the lock have ended (so what they did,
    /// or did not do, is in the table).
    static func holding(_ statement: PostgresQuery, in raw: PostgresRequestStore,
                        whileBlocked: ([Int32]) async throws -> Void = { _ in },
                        call: @escaping @Sendable () async throws -> LoopbackHTTPClient.Response) async throws -> Held {
        let logger = ServerFixture.quietLogger
        return try await raw.client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            try await connection.query(statement, logger: logger)
            let holder = try await single(connection.query("SELECT pg_backend_pid()", logger: logger), as: Int32.self)
            let answering = answeringTask(call)
            let waiting = try await blockedBackends(by: holder, on: raw.client)
            try await whileBlocked(waiting)
            let answeredWhileLocked = await untilAnsweredOrLate(answering)
            try await connection.query("ROLLBACK", logger: logger)
            let (answer, elapsed) = try await answering.task.value
            try await waitUntilIdle(waiting, on: raw.client)
            return Held(answer: answer, elapsed: elapsed, blocked: !waiting.isEmpty, answeredWhileLocked: answeredWhileLocked)
        }
    }

    /// `call` under way, timed, and a stream that ends when it has answered.
    static func answeringTask(_ call: @escaping @Sendable () async throws -> LoopbackHTTPClient.Response)
        -> (task: Task<(LoopbackHTTPClient.Response, Duration), any Error>, answered: AsyncStream<Void>) {
        let (answered, answeredNow) = AsyncStream.makeStream(of: Void.self)
        let start = ContinuousClock.now
        let task = Task {
            defer { answeredNow.finish() }
            let response = try await call()
            return (response, ContinuousClock.now - start)
        }
        return (task, answered)
    }

    /// Returns when `answering` has answered (true) or `bound` has passed (false), whichever comes first: a lock is
    /// held until then, and a late answer (a server waiting for the lock) comes after it goes.
    static func untilAnsweredOrLate(_ answering: (task: Task<(LoopbackHTTPClient.Response, Duration), any Error>, answered: AsyncStream<Void>),
                                    bound: Duration = .seconds(storeTimeout) + slack) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in answering.answered {}
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: bound)
                return false
            }
            let answered = await group.next() ?? false
            group.cancelAll()
            return answered
        }
    }

    /// The backends waiting for a lock `holder` holds, as soon as there is one (or none after ten seconds: a statement
    /// may first queue behind other suites' locks). Asked through the pool, one transaction per look: a transaction
    /// sees `pg_stat_activity` as it was at its first look.
    static func blockedBackends(by holder: Int32, on client: PostgresClient) async throws -> [Int32] {
        for _ in 0..<1000 {
            let rows = try await client.query(
                "SELECT pid FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))", logger: ServerFixture.quietLogger)
            var pids: [Int32] = []
            for try await pid in rows.decode(Int32.self) { pids.append(pid) }
            if !pids.isEmpty { return pids }
            try await Task.sleep(for: .milliseconds(10))
        }
        return []
    }

    /// Waits until none of `backends` runs a statement on `verify_requests` any more.
    static func waitUntilIdle(_ backends: [Int32], on client: PostgresClient) async throws {
        guard !backends.isEmpty else { return }
        for _ in 0..<500 {
            let busy = try await single(client.query("""
                SELECT count(*) FROM pg_stat_activity
                WHERE pid = ANY(\(backends)) AND state = 'active' AND query LIKE '%verify_requests%'
                """, logger: ServerFixture.quietLogger), as: Int64.self)
            if busy == 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the statements that waited for the lock did not end")
    }

    static func attempts(_ id: String, in raw: PostgresRequestStore) async throws -> Int64 {
        try await single(raw.client.query("SELECT attempts FROM verify_requests WHERE id = \(id)", logger: ServerFixture.quietLogger), as: Int64.self)
    }

    static func rows(marker: String, in raw: PostgresRequestStore) async throws -> Int64 {
        try await single(raw.client.query(
            "SELECT count(*) FROM verify_requests WHERE strpos(policy, \(marker)) > 0", logger: ServerFixture.quietLogger), as: Int64.self)
    }

    static func single<T: PostgresDecodable & Sendable>(_ rows: PostgresRowSequence, as type: T.Type) async throws -> T {
        var value: T?
        for try await decoded in rows.decode(T.self) { value = decoded }
        return try #require(value)
    }
}

/// The same for the SQLite store: another connection to the file holds its write lock (`BEGIN IMMEDIATE`), so the
/// server's consume waits in SQLite's busy handler, as it would behind another process or a stalled disk.
@Suite("verify-server on a locked SQLite file: a 503 is bounded by storeTimeout and consumes nothing")
struct LockedSQLiteTests {
    static let storeTimeout: TimeInterval = 2
    /// The lock is held until the answer or this, below the store's `busy_timeout` (5 s): a consume that waited for
    /// the lock then gets it, rather than giving up.
    static let bound: Duration = .milliseconds(4500)

    @Test("verify while another connection holds the write lock: 503 within storeTimeout; after it goes the request is unconsumed and the retry verifies (200)")
    func lockedFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hung-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("requests.sqlite").path
        // The schema first, without a time limit: on a loaded machine creating the file can outlast storeTimeout, and
        // the server's start is bounded by it.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let schema = try await SQLiteRequestStore.open(path: path, logger: ServerFixture.quietLogger)
        try await schema.prepare()
        try await schema.close()
        var settings = AppleSample.configuration(store: .sqlite(path: path))
        settings.storeTimeout = Self.storeTimeout
        let configuration = settings
        // Its start is bounded by the short storeTimeout: under a full parallel run it may be started again.
        try await ServerFixture.withServerStartedAgain(configuration) { server in
            let request = AppleSample.request()
            // On a loaded machine the insert can outlast storeTimeout and still land: look before trying again.
            try await Self.onceAnswered {
                if try await server.store.lookup(id: request.id) == nil { try await server.store.insert(request) }
            }
            let other = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await other.query("BEGIN IMMEDIATE")
            let answering = HungStoreTests.answeringTask {
                try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            }
            let answeredWhileLocked = await HungStoreTests.untilAnsweredOrLate(answering, bound: Self.bound)
            _ = try await other.query("ROLLBACK")
            try await other.close()
            let (answer, elapsed) = try await answering.task.value
            #expect(answeredWhileLocked, "the server answered only once the lock was gone")
            #expect(answer.status == 503, "\(answer.text)")
            #expect(elapsed < Self.bound, "the 503 came after \(elapsed)")

            // The lookup queues behind the consume the server left waiting, which ends without acting; on a loaded
            // machine that can outlast one storeTimeout, so the store is asked again until it answers.
            let stored = try await Self.onceAnswered { try await server.store.lookup(id: request.id) }
            #expect(stored?.state == request.state, "the 503 emptied the request's state")
            var retry = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            for _ in 0..<20 where retry.status == 503 {
                try await Task.sleep(for: .milliseconds(250))
                retry = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            }
            #expect(retry.status == 200, "\(retry.text)")
        }
    }

    /// `body`'s value once the store answers within its timeout (at most 60 tries, 250 ms apart: under a full parallel
    /// test run the file's syncs can stall it for a minute); the last failure is thrown.
    static func onceAnswered<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 0..<59 {
            if let value = try? await body() { return value }
            try await Task.sleep(for: .milliseconds(250))
        }
        return try await body()
    }
}
