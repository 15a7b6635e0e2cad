import Foundation
import PostgresNIO
import Testing
@testable import VerifyServer

/// The PostgreSQL server the tests use: `.ci/run` starts one and exports its URL.
enum TestPostgres {
    static let variable = "VERIFY_SERVER_TEST_POSTGRES_URL"
    static var url: String? { ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 } }
    static let skipReason: Comment = "VERIFY_SERVER_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped (.ci/run starts a server and sets it)"

    /// `body` with the URL of a database of its own on the test server, dropped after.
    ///
    /// For tests that claim or purge whatever is due in the outbox: on the shared database, a server of another suite
    /// running at the same time claims (and a purge deletes) the rows of this one. Needs CREATEDB (`.ci/run` grants it).
    static func withDatabase<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let base = try #require(url)
        var components = try #require(URLComponents(string: base))
        let name = "verify_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(base, "CREATE DATABASE \(name)")
        components.path = "/" + name
        let result: Result<T, any Error>
        do {
            result = .success(try await body(try #require(components.string)))
        } catch {
            result = .failure(error)
        }
        try await administer(base, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        return try result.get()
    }

    /// `body` on a running store in a database of its own.
    static func withStore(_ body: @Sendable (PostgresRequestStore) async throws -> Void) async throws {
        try await withDatabase { url in
            let store = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
            try await ServerFixture.withStore(store) { try await body(store) }
        }
    }

    /// Runs one statement outside a transaction (CREATE and DROP DATABASE need that) on a pool of its own.
    private static func administer(_ url: String, _ statement: String) async throws {
        let store = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
        try await ServerFixture.withStore(store) {
            try await store.client.withConnection { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: ServerFixture.quietLogger)
            }
        }
    }
}
