import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// The store's last answer to a ping, which `/readyz` reports at once, never waiting on the store: whether it
/// answered and when. `StoreHealthMonitor` keeps it current.
final class StoreHealth: Sendable {
    struct Check: Sendable {
        var reachable: Bool
        var at: Date
    }

    private let last = NIOLockedValueBox<Check?>(nil)
    /// How old a check may be before it no longer counts (the monitor itself stopped): the interval, the store's
    /// timeout and a second.
    let overdue: TimeInterval

    init(overdue: TimeInterval) {
        self.overdue = overdue
    }

    func record(_ check: Check) { last.withLockedValue { $0 = check } }

    /// The last check, and whether the store counts as reachable at `now` (it answered, and not too long ago).
    func state(at now: Date) -> (check: Check?, reachable: Bool) {
        let check = last.withLockedValue { $0 }
        guard let check else { return (nil, false) }
        return (check, check.reachable && now.timeIntervalSince(check.at) <= overdue)
    }
}

/// Pings the store every `interval` (each ping bounded by `storeTimeout`, as every store call is) and records the
/// answer in `health`: a database that stops answering turns `/readyz` to 503 within the interval plus the timeout.
struct StoreHealthMonitor: Service {
    let store: any RequestStore
    let health: StoreHealth
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    /// One ping, recorded (and logged when the answer changes).
    func check() async {
        var reachable = true
        do {
            try await store.ping()
        } catch {
            reachable = false
        }
        let before = health.state(at: now()).check?.reachable
        health.record(.init(reachable: reachable, at: now()))
        if before != reachable, before != nil || !reachable {
            if reachable {
                logger.info("request store answers again")
            } else {
                logger.warning("readiness: request store unreachable")
            }
        }
    }

    func run() async throws {
        await repeatEvery(interval) { await check() }
    }
}
