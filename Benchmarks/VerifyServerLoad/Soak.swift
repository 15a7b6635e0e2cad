import Foundation
import LoopbackClient
import VerifyServer

/// A long open-loop run at a fixed rate, in batches of ten seconds (each seeds its own requests), reading this
/// process's resident set size after the first minute (warm-up: caches, pools and allocator arenas filled) and at the
/// end. Client and server share the process, so the figure bounds the server's growth from above.
struct Soak {
    let client: LoopbackHTTPClient
    let app: VerifyServerApp
    let concurrency: Int
    let rate: Double
    let seconds: Double

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let batch = max(Int(rate * 10), 1)
        var warmRSS: Int?
        var calls = 0
        var failed = 0
        print(String(format: "soak: open loop at %.0f calls/s for %.0f s, RSS at start %@", rate, seconds, Self.format(Self.residentBytes())))
        while (clock.now - start) < .seconds(seconds) {
            var ids: [String] = []
            for _ in 0 ..< batch {
                let request = SampleServer.request(lifetime: SampleServer.requestLifetime)
                try await app.store.insert(request)
                ids.append(request.id)
            }
            let result = try await LoadRun(client: client, requestIDs: ids, body: SampleServer.verifyBody, concurrency: concurrency,
                                           connections: .keepAlive, rate: rate, maxSeconds: 60).run()
            calls += result.latencies.count + result.failures
            failed += result.failures + result.statuses.filter { $0.key != 200 }.values.reduce(0, +)
            // By then the store holds its steady window (requests live 20 s and are purged 20 s after expiry, every 5 s).
            if warmRSS == nil, clock.now - start >= .seconds(60) {
                warmRSS = Self.residentBytes()
                print("soak: RSS after warm-up (60 s) \(Self.format(warmRSS))")
            }
        }
        let endRSS = Self.residentBytes()
        print("soak: \(calls) calls, \(failed) not 200; RSS at end \(Self.format(endRSS))")
        if let warm = warmRSS, let end = endRSS, warm > 0 {
            print(String(format: "soak: RSS growth after warm-up: %.1f %%", Double(end - warm) * 100 / Double(warm)))
        }
    }

    /// VmRSS from /proc/self/status, in bytes.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    static func format(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unknown"
    }
}
