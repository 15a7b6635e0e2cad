import LoopbackClient
import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import VerifyServer

/// Starts verify-server in this process on 127.0.0.1 (Apple's sample in test mode, verification time pinned
/// inside its validity), seeds one request per verification, then posts the sample to POST /v1/verify from
/// concurrent loopback clients. Bounded by --count and --max-seconds; prints verifications/s and latency.
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-server-load",
        abstract: "Loopback load on verify-server's POST /v1/verify; prints verifications/s and p50/p99 latency.")

    @Option(help: "Verify calls to make (1…100000).")
    var count = 2000

    @Option(help: "Concurrent clients (1…256).")
    var concurrency = 8

    @Option(help: "Stop after this many seconds even if --count is not reached (1…600).")
    var maxSeconds = 60.0

    @Option(help: "Request store: memory, sqlite (a temporary file) or a postgres:// URL.")
    var store = "memory"

    func validate() throws {
        guard (1 ... 100_000).contains(count) else { throw ValidationError("--count must be 1…100000") }
        guard (1 ... 256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
        guard maxSeconds >= 1, maxSeconds <= 600 else { throw ValidationError("--max-seconds must be 1…600") }
    }

    func run() async throws {
        var logger = Logger(label: "verify-server-load")
        logger.logLevel = .warning
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location: StoreLocation
        switch store {
        case "memory": location = .memory
        case "sqlite": location = .sqlite(path: folder.appendingPathComponent("requests.sqlite").path)
        default: location = try StoreLocation(url: store)
        }

        let app = try await VerifyServerApp.make(configuration: try SampleServer.configuration(store: location, folder: folder), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try await app.port()
            var ids: [String] = []
            for _ in 0 ..< count {
                let request = SampleServer.request()
                try await app.store.insert(request)
                ids.append(request.id)
            }
            print("verify-server on 127.0.0.1:\(port), store \(location.redacted), \(count) requests seeded, concurrency \(concurrency)")
            let result = try await LoadRun(client: try LoopbackHTTPClient(port: port), requestIDs: ids, body: SampleServer.verifyBody,
                                           concurrency: concurrency, maxSeconds: maxSeconds).run()
            result.print()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
