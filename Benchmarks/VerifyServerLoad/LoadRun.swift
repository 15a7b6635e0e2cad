import LoopbackClient
import Foundation
import Synchronization
import VerifyServer

/// Loopback clients taking request IDs from a shared cursor until all are used or the time limit passes.
///
/// Closed loop (no `rate`): each of `concurrency` clients sends its next call as soon as the last one answered.
/// Open loop (`rate` calls per second): call i is due at start + i / rate whatever the server's pace, and is served by
/// the next free client; its latency counts from when it was due, so time spent queued behind a slow server is seen.
struct LoadRun: Sendable {
    enum Connections: String, Sendable {
        case keepAlive = "keep-alive"
        case close
    }

    let client: LoopbackHTTPClient
    let requestIDs: [String]
    let body: @Sendable (String) -> String
    let concurrency: Int
    let connections: Connections
    let rate: Double?
    let maxSeconds: Double

    struct Result {
        var statuses: [Int: Int] = [:]
        var latencies: [Duration] = []
        var failures = 0
        var elapsed: Duration = .zero

        var seconds: Double { Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 }
        var verificationsPerSecond: Double { seconds > 0 ? Double(statuses[200] ?? 0) / seconds : 0 }

        func percentile(_ p: Int) -> Duration {
            guard !latencies.isEmpty else { return .zero }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, sorted.count * p / 100)]
        }

        func print() {
            Swift.print("calls: \(latencies.count + failures) in \(String(format: "%.2f", seconds)) s; statuses: "
                        + statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
                        + (failures > 0 ? "; connection failures: \(failures)" : ""))
            Swift.print(String(format: "verifications/s: %.1f", verificationsPerSecond))
            Swift.print("latency p50: \(milliseconds(percentile(50))) ms, p99: \(milliseconds(percentile(99))) ms")
        }

        private func milliseconds(_ duration: Duration) -> String {
            String(format: "%.2f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
    }

    func run() async throws -> Result {
        let cursor = Cursor()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(maxSeconds * 1000)))
        let interval = rate.map { Duration.nanoseconds(Int64(1e9 / $0)) }
        var result = try await withThrowingTaskGroup(of: Result.self) { workers in
            for _ in 0 ..< concurrency {
                workers.addTask {
                    var partial = Result()
                    /// The next call's index and the instant its latency counts from; nil when the run is over.
                    func next() async throws -> (index: Int, due: ContinuousClock.Instant)? {
                        let index = cursor.next()
                        guard index < requestIDs.count, clock.now < deadline else { return nil }
                        guard let interval else { return (index, clock.now) }
                        let due = start.advanced(by: interval * index)
                        if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                        return (index, due)
                    }
                    func record(_ call: () async throws -> LoopbackHTTPClient.Response, due: ContinuousClock.Instant) async -> Bool {
                        do {
                            let response = try await call()
                            partial.latencies.append(clock.now - due)
                            partial.statuses[response.status, default: 0] += 1
                            return true
                        } catch {
                            partial.failures += 1
                            return false
                        }
                    }
                    switch connections {
                    case .close:
                        while let (index, due) = try await next() {
                            _ = await record({ try await client.post("/v1/verify", json: body(requestIDs[index])) }, due: due)
                        }
                    case .keepAlive:
                        // A connection the server closed (or that failed) is replaced by a new one.
                        var more = true
                        while more {
                            more = false
                            do {
                                try await client.withKeepAliveConnection { connection in
                                while let (index, due) = try await next() {
                                    var alive = true
                                    let ok = await record({
                                        do { return try await connection.post("/v1/verify", json: body(requestIDs[index])) } catch {
                                            alive = false
                                            throw error
                                        }
                                    }, due: due)
                                    if !ok || !alive {
                                        more = true
                                        return
                                    }
                                }
                                }
                            } catch {
                                partial.failures += 1  // could not connect: this client stops
                            }
                        }
                    }
                    return partial
                }
            }
            var total = Result()
            for try await partial in workers {
                total.latencies += partial.latencies
                total.failures += partial.failures
                total.statuses.merge(partial.statuses, uniquingKeysWith: +)
            }
            return total
        }
        result.elapsed = clock.now - start
        return result
    }
}

/// Hands out 0, 1, 2, … to concurrent workers.
final class Cursor: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
