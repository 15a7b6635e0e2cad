import CAllocator
import Foundation
import VerifyServer

/// A long open-loop run at a fixed rate, in batches of ten seconds (each seeds its own requests), printing this
/// process's resident set size every minute, and its growth from the end of the warm-up (the first third of the run)
/// to the end. Client and server share the process, so the figure bounds the server's growth from above.
///
/// Why a third: the store's window of live requests fills in under a minute, and glibc's arenas take a few minutes
/// more to settle between trims (RSS moves by a few percent from minute to minute). A real leak still shows in the
/// remaining two thirds: at the soak's 2,100 calls/s, 10 bytes per call would add about 8 % over 400 s.
struct Soak {
    let port: Int
    let app: VerifyServerApp
    let concurrency: Int
    let rate: Double
    let seconds: Double

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let batch = max(Int(rate * 10), 1)
        var warmRSS: Int?
        let warmUp = seconds / 3
        var nextSample = 60.0
        var calls = 0
        var failed = 0
        print(String(format: "soak: open loop at %.0f calls/s for %.0f s, RSS at start %@", rate, seconds, Self.format(Self.residentBytes())))
        while (clock.now - start) < .seconds(seconds) {
            var ids: [String] = []
            for _ in 0 ..< batch {
                let request = try SampleServer.request(lifetime: SampleServer.requestLifetime)
                try await app.store.insert(request)
                ids.append(request.id)
            }
            let result = try await LoadRun(port: port, requestIDs: ids, body: SampleServer.verifyBody, concurrency: concurrency,
                                           connections: .keepAlive, rate: rate, maxSeconds: 60).run()
            calls += result.latencies.count + result.failures
            failed += result.failures + result.statuses.filter { $0.key != 200 }.values.reduce(0, +)
            let elapsed = Self.seconds(clock.now - start)
            if elapsed >= nextSample {
                print(String(format: "soak: %4.0f s RSS %@, %@", elapsed, Self.format(Self.residentBytes()), Self.heap()))
                nextSample += 60
            }
            if warmRSS == nil, elapsed >= warmUp {
                warmRSS = Self.residentBytes()
                print(String(format: "soak: RSS after warm-up (%.0f s) %@", elapsed, Self.format(warmRSS)))
            }
        }
        let endRSS = Self.residentBytes()
        print("soak: \(calls) calls, \(failed) not 200; RSS at end \(Self.format(endRSS)), \(Self.heap())")
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

    /// The allocator's view (glibc `mallinfo2`): bytes handed out and bytes it holds free. Growth of the first is
    /// retention; growth of RSS with a flat first is the allocator keeping freed pages.
    static func heap() -> String {
        var (inUse, free) = (0, 0)
        callocator_read(&inUse, &free)
        return "heap in use \(format(inUse)), free in the allocator \(format(free))"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unknown"
    }
}
