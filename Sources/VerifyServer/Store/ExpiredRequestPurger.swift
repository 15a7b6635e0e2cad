import Foundation
import Logging
import ServiceLifecycle

/// Every `interval` until graceful shutdown: empties the state of requests that have expired (their secrets are of no
/// further use) and deletes requests that expired more than `retention` ago. Keeping expired rows for a while lets a
/// late attempt get `nonce.expired` instead of `nonce.unknown`.
struct ExpiredRequestPurger: Service {
    let store: any RequestStore
    let interval: Duration
    let retention: TimeInterval
    let clock: ServerClock
    let logger: Logger

    func run() async throws {
        await repeatEvery(interval) {
            do {
                _ = try await purgeOnce()
            } catch {
                logger.warning("purging expired requests failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Returns how many requests it deleted.
    func purgeOnce() async throws -> Int {
        let now = clock.now()
        _ = try await store.eraseState(expiredBefore: now)
        let count = try await store.purge(expiredBefore: now.addingTimeInterval(-retention))
        if count > 0 { logger.info("purged expired requests", metadata: ["count": "\(count)"]) }
        return count
    }
}
