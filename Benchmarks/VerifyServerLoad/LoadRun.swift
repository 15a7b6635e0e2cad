import Foundation
import Synchronization
import VerifyServer

/// Loopback clients (threads with blocking sockets, `SocketConnection`) taking request IDs from a shared cursor until
/// all are used or the time limit passes.
///
/// Closed loop (no `rate`): each of `concurrency` clients sends its next call as soon as the last one answered.
/// Open loop (`rate` calls per second): call i is due at start + i / rate whatever the server's pace, and is served by
/// the next free client; its latency counts from when it was due, so time spent queued behind a slow server is seen.
struct LoadRun: Sendable {
    enum Connections: String, Sendable {
        case keepAlive = "keep-alive"
        case close
    }

    let port: Int
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
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(maxSeconds * 1000)))
        let interval = rate.map { Duration.nanoseconds(Int64(1e9 / $0)) }
        // Blocking sockets on threads of their own: the Swift executor's threads stay the server's.
        var result = await withTaskGroup(of: Result.self) { workers in
            for _ in 0 ..< concurrency {
                workers.addTask {
                    await withCheckedContinuation { finished in
                        Thread { finished.resume(returning: work(cursor: cursor, start: start, deadline: deadline, interval: interval)) }.start()
                    }
                }
            }
            var total = Result()
            for await partial in workers {
                total.latencies += partial.latencies
                total.failures += partial.failures
                total.statuses.merge(partial.statuses, uniquingKeysWith: +)
            }
            return total
        }
        result.elapsed = clock.now - start
        return result
    }

    private var clock: ContinuousClock { ContinuousClock() }

    /// One client: takes the next call until none is left or the time is up; a connection that failed is replaced on
    /// the next call.
    private func work(cursor: Cursor, start: ContinuousClock.Instant, deadline: ContinuousClock.Instant, interval: Duration?) -> Result {
        var partial = Result()
        var connection: SocketConnection?
        while true {
            let index = cursor.next()
            guard index < requestIDs.count, clock.now < deadline else { break }
            var due = clock.now
            if let interval {
                due = start.advanced(by: interval * index)
                Self.sleep(for: due - clock.now)
            }
            do {
                let open = try connection ?? SocketConnection(port: port)
                let status = try open.exchange(Self.request(port: port, body: body(requestIDs[index]), close: connections == .close))
                partial.latencies.append(clock.now - due)
                partial.statuses[status, default: 0] += 1
                connection = connections == .keepAlive ? open : nil
            } catch {
                partial.failures += 1
                connection = nil
            }
        }
        return partial
    }

    /// A whole POST /v1/verify request.
    static func request(port: Int, body: String, close: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.utf8.count + 160)
        bytes += "POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n".utf8
        bytes += "Content-Length: \(body.utf8.count)\r\n\(close ? "Connection: close\r\n" : "")\r\n".utf8
        bytes += body.utf8
        return bytes
    }

    private static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&time, nil)
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
