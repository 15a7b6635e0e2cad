import Foundation
import Logging
import ServiceLifecycle

/// Deletes requests that expired more than `retention` ago, every `interval`, until graceful shutdown.
/// Keeping expired rows for a while lets a late attempt get `nonce.expired` instead of `nonce.unknown`.
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

    func purgeOnce() async throws -> Int {
        let count = try await store.purge(expiredBefore: clock.now().addingTimeInterval(-retention))
        if count > 0 { logger.info("purged expired requests", metadata: ["count": "\(count)"]) }
        return count
    }
}
