import LoopbackClient
import Foundation
import Synchronization
import VerifyServer

/// Concurrent clients taking request IDs from a shared cursor until all are used or the time limit passes.
struct LoadRun: Sendable {
    let client: LoopbackHTTPClient
    let requestIDs: [String]
    let body: @Sendable (String) -> String
    let concurrency: Int
    let maxSeconds: Double

    struct Result {
        var statuses: [Int: Int] = [:]
        var latencies: [Duration] = []
        var failures = 0
        var elapsed: Duration = .zero

        func percentile(_ p: Int) -> Duration {
            guard !latencies.isEmpty else { return .zero }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, sorted.count * p / 100)]
        }

        func print() {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let verified = statuses[200] ?? 0
            Swift.print("calls: \(latencies.count + failures) in \(String(format: "%.2f", seconds)) s; statuses: "
                        + statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
                        + (failures > 0 ? "; connection failures: \(failures)" : ""))
            Swift.print(String(format: "verifications/s: %.1f", seconds > 0 ? Double(verified) / seconds : 0))
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
        var result = try await withThrowingTaskGroup(of: Result.self) { workers in
            for _ in 0 ..< concurrency {
                workers.addTask {
                    var partial = Result()
                    while clock.now < deadline {
                        let index = cursor.next()
                        guard index < requestIDs.count else { break }
                        let sent = clock.now
                        do {
                            let response = try await client.post("/v1/verify", json: body(requestIDs[index]))
                            partial.latencies.append(clock.now - sent)
                            partial.statuses[response.status, default: 0] += 1
                        } catch {
                            partial.failures += 1
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
