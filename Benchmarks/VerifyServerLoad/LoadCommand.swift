import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import VerifyServer

@main
enum Entrypoint {
    static func main() async {
        // As verify-server does; the load's own clients are threads of their own.
        let onEventLoops = EventLoopExecutor.install()
        print("tasks run on \(onEventLoops ? "the server's event loops" : "the default executor")")
        await LoadCommand.main()
    }
}

/// Starts verify-server in this process on 127.0.0.1 (Apple's sample in test mode, verification time pinned
/// inside its validity), seeds one request per verification, then posts the sample to POST /v1/verify from
/// loopback clients. First the library alone verifies the sample on one core for `--bench-seconds`, so the server's
/// figure is compared with it in the same run. Bounded by --count and --max-seconds.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-server-load",
        abstract: "Loopback load on verify-server's POST /v1/verify; prints verifications/s, p50/p99 latency and the ratio to the one-core library figure.")

    @Option(help: "Verify calls to make per run (1…100000).")
    var count = 2000

    @Option(help: "Concurrent clients, each with its own connection (1…256).")
    var concurrency = 8

    @Option(help: "keep-alive (one connection per client, reused) or close (a new connection per call).")
    var connections = "keep-alive"

    @Option(help: "Open loop at this many calls per second (latency counted from when each call was due); without it, closed loop.")
    var rate: Double?

    @Flag(help: "After the closed-loop run, run open loop at half of the throughput it measured.")
    var halfRate = false

    @Option(help: "Soak: after the closed-loop run, keep an open loop at half its throughput for this many seconds and print the RSS each minute and its growth after the first third (60…3600).")
    var soakSeconds: Double?

    @Option(help: "Seconds the library alone verifies the sample on one core first, for the ratio (0 skips it).")
    var benchSeconds = 2.0

    @Option(help: "Stop a run after this many seconds even if --count is not reached (1…600).")
    var maxSeconds = 60.0

    @Option(help: "Request store: memory, sqlite (a temporary file) or a postgres:// URL.")
    var store = "memory"

    func validate() throws {
        guard (1 ... 100_000).contains(count) else { throw ValidationError("--count must be 1…100000") }
        guard (1 ... 256).contains(concurrency) else { throw ValidationError("--concurrency must be 1…256") }
        guard LoadRun.Connections(rawValue: connections) != nil else { throw ValidationError("--connections is keep-alive or close") }
        guard rate.map({ $0 > 0 && $0 <= 100_000 }) ?? true else { throw ValidationError("--rate must be in (0, 100000]") }
        guard !(halfRate && rate != nil) else { throw ValidationError("--half-rate follows a closed-loop run; leave out --rate") }
        guard soakSeconds.map({ $0 >= 60 && $0 <= 3600 }) ?? true else { throw ValidationError("--soak-seconds must be 60…3600") }
        guard !(soakSeconds != nil && (rate != nil || halfRate)) else { throw ValidationError("--soak-seconds sets its own rate") }
        guard benchSeconds >= 0, benchSeconds <= 60 else { throw ValidationError("--bench-seconds must be 0…60") }
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
        let libraryRate = benchSeconds > 0 ? try LibraryBench.verificationsPerSecond(seconds: benchSeconds) : nil
        if let libraryRate { print(String(format: "library alone, one core: %.1f verifications/s", libraryRate)) }

        let app = try await VerifyServerApp.make(configuration: try SampleServer.configuration(store: location, folder: folder), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = try await app.port()
            func load(rate: Double?) async throws -> LoadRun.Result {
                var ids: [String] = []
                for _ in 0 ..< count {
                    let request = try SampleServer.request()
                    try await app.store.insert(request)
                    ids.append(request.id)
                }
                let mode = rate.map { String(format: "open loop at %.0f calls/s", $0) } ?? "closed loop"
                print("verify-server on 127.0.0.1:\(port), store \(location.redacted), \(count) requests seeded, \(concurrency) clients, "
                      + "\(connections) connections, \(mode)")
                let result = try await LoadRun(port: port, requestIDs: ids, body: SampleServer.verifyBody, concurrency: concurrency,
                                               connections: LoadRun.Connections(rawValue: connections) ?? .keepAlive, rate: rate,
                                               maxSeconds: maxSeconds).run()
                result.print()
                if rate == nil, let libraryRate {
                    print(String(format: "ratio to the one-core library figure: %.2f×", result.verificationsPerSecond / libraryRate))
                }
                return result
            }
            let first = try await load(rate: rate)
            if halfRate {
                _ = try await load(rate: max(first.verificationsPerSecond / 2, 1))
            }
            if let soakSeconds {
                try await Soak(port: port, app: app, concurrency: concurrency,
                               rate: max(first.verificationsPerSecond / 2, 1), seconds: soakSeconds).run()
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
