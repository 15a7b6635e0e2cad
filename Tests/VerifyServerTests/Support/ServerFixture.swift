import LoopbackClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import Verifier
import VerifyServer

/// A wall clock the test moves by hand (request expiry), so no test waits for time to pass.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var serverClock: ServerClock { ServerClock { [self] in self.now } }
}

/// A server running in-process on 127.0.0.1 with an ephemeral port, and a client for it.
struct RunningServer: Sendable {
    let app: VerifyServerApp
    let client: LoopbackHTTPClient
    let group: ServiceGroup

    var store: any RequestStore { app.store }

    /// The rollback mark the store holds under `key` once it is `value`, or what it holds after 10 s: an accepted
    /// mark is written just after the start or reload that accepted it, not within it.
    func storedMark(_ key: String, reaching value: UInt64) async throws -> UInt64? {
        let clock = ContinuousClock(), deadline = clock.now + .seconds(10)
        while true {
            let stored = try await store.vicalIssueIDs()[key]
            if stored == value || clock.now >= deadline { return stored }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

enum ServerFixture {
    static let quietLogger: Logger = {
        var logger = Logger(label: "verify-server-tests")
        logger.logLevel = .critical
        return logger
    }()

    /// Starts the server, runs `body`, then shuts it down gracefully (also when `body` throws).
    static func withServer<T: Sendable>(
        _ configuration: ServerConfiguration = AppleSample.configuration(), store: (any RequestStore)? = nil,
        clock: TestClock = TestClock(), hooks: ServerHooks = ServerHooks(), logger: Logger = quietLogger,
        rereadConfiguration: (@Sendable () -> (ServerConfiguration, [String]))? = nil, formats: FormatRegistry = .standard,
        _ body: @Sendable (RunningServer) async throws -> T
    ) async throws -> T {
        let app = try await VerifyServerApp.make(configuration: configuration, store: store, clock: clock.serverClock,
                                                 hooks: hooks, rereadConfiguration: rereadConfiguration, formats: formats, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let result: Result<T, any Error>
            do {
                let port = try await app.port()
                let server = RunningServer(app: app, client: try LoopbackHTTPClient(port: port), group: group)
                result = .success(try await body(server))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }

    /// `withServer`, started again (at most three starts) when the start itself failed: a server whose store step at
    /// start is bounded by a short `storeTimeout` can outlast it while every other suite loads the two cores.
    static func withServerStartedAgain(_ configuration: ServerConfiguration, logger: Logger = quietLogger,
                                       _ body: @Sendable (RunningServer) async throws -> Void) async throws {
        for attempt in 1... {
            let started = Mutex(false)
            do {
                return try await withServer(configuration, logger: logger) { server in
                    started.withLock { $0 = true }
                    try await body(server)
                }
            } catch where attempt < 3 && !started.withLock({ $0 }) {
                continue
            }
        }
    }

    /// Opens the SQLite store at `path` for `body` and closes it after, also when `body` throws (a connection that is
    /// not closed traps in its deinit, which would end the whole test run).
    static func withSQLite<T: Sendable>(path: String, _ body: (SQLiteRequestStore) async throws -> T) async throws -> T {
        let store = try await SQLiteRequestStore.open(path: path, logger: quietLogger)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(store))
        } catch {
            result = .failure(error)
        }
        try await store.close()
        return try result.get()
    }

    /// Runs a store's services (e.g. a PostgreSQL pool) around `body`.
    /// `body` on a memory store, an SQLite store in a file of its own and, when the tests have one, a PostgreSQL database of
    /// its own.
    static func eachStore(_ body: @Sendable (any RequestStore) async throws -> Void) async throws {
        try await body(InMemoryRequestStore())
        try await WebhookOutboxTests.withSQLiteStore { try await body($0) }
        if TestPostgres.url != nil {
            try await TestPostgres.withStore { try await body($0) }
        }
    }

    static func withStore<T: Sendable>(_ store: any RequestStore, _ body: @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for service in store.services {
                tasks.addTask { try await service.run() }
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            tasks.cancelAll()
            try? await tasks.waitForAll()
            return try result.get()
        }
    }
}


/// A `POST /v1/verify` body.
func verifyJSON(_ requestId: String, response: String) -> String {
    // JSON-escaped: an OpenID4VP response is itself JSON text.
    let body = (try? JSONSerialization.data(withJSONObject: ["requestId": requestId, "response": response], options: [.sortedKeys])) ?? Data()
    return String(decoding: body, as: UTF8.self)
}

/// Parses a JSON response body.
func jsonObject(_ response: LoopbackHTTPClient.Response) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    return try #require(object as? [String: Any], "response is not a JSON object: \(response.text)")
}

/// The `error.code` of an error body, or the first report error code.
func errorCode(_ response: LoopbackHTTPClient.Response) throws -> String? {
    let object = try jsonObject(response)
    if let error = object["error"] as? [String: Any] { return error["code"] as? String }
    return ((object["errors"] as? [[String: Any]])?.first)?["code"] as? String
}

/// Every report error code.
func errorCodes(_ response: LoopbackHTTPClient.Response) throws -> [String] {
    ((try jsonObject(response)["errors"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
}
