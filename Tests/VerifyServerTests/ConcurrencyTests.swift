import LoopbackClient
import Foundation
import Testing
import TestSupport
import VerifyServer

/// Many verify calls for one request at once: exactly one is answered with a report, every other one 409.
@Suite("verify-server under concurrent verify calls for one request")
struct ConcurrencyTests {
    static let attempts = 200

    /// Fires `attempts` verify calls for `requestId`, round-robin over `ports`, all at once; returns the statuses.
    static func storm(requestId: String, ports: [Int]) async throws -> [Int] {
        let body = AppleSample.verifyBody(requestId)
        let clients = try ports.map { try LoopbackHTTPClient(port: $0) }
        return try await withThrowingTaskGroup(of: Int.self) { tasks in
            for index in 0 ..< attempts {
                let client = clients[index % clients.count]
                tasks.addTask { try await client.post("/v1/verify", json: body).status }
            }
            var statuses: [Int] = []
            for try await status in tasks { statuses.append(status) }
            return statuses
        }
    }

    static func expectOneWinner(_ statuses: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(statuses.count == attempts, sourceLocation: sourceLocation)
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))",
                sourceLocation: sourceLocation)
        #expect(statuses.filter { $0 == 409 }.count == attempts - 1, sourceLocation: sourceLocation)
    }

    @Test("one instance on the embedded SQLite store: one 200, 199 × 409")
    func sqliteOneInstance() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = AppleSample.configuration(store: .sqlite(path: folder.appendingPathComponent("requests.sqlite").path))
        try await ServerFixture.withServer(configuration) { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            Self.expectOneWinner(try await Self.storm(requestId: request.id, ports: [server.client.port]))
        }
    }

    @Test("two verify-server processes sharing PostgreSQL: one 200, 199 × 409; both stop cleanly on SIGTERM",
          .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func postgresTwoProcesses() async throws {
        let url = try #require(TestPostgres.url)
        let environment = ServerProcess.sampleEnvironment([
            "VERIFY_SERVER_VERIFICATION_TIME": "2022-06-01T00:00:00Z", "VERIFY_SERVER_STORE_URL": url,
        ])
        let first = try ServerProcess.start(environment: environment)
        defer { first.stop() }
        let second = try ServerProcess.start(environment: environment)
        defer { second.stop() }
        let ports = [try first.port(), try second.port()]

        let store = PostgresRequestStore(location: try PostgresLocation(url: url), logger: ServerFixture.quietLogger)
        let request = AppleSample.request()
        try await ServerFixture.withStore(store) { try await store.insert(request) }

        Self.expectOneWinner(try await Self.storm(requestId: request.id, ports: ports))
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }
}
