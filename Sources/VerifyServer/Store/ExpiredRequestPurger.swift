import Foundation
import Logging
import ServiceLifecycle

/// Every `interval` until graceful shutdown: empties the state of requests that have expired (their secrets are of no
/// further use) and deletes requests that expired more than `retention` ago. Keeping expired rows for a while lets a
/// late attempt get `nonce.expired` instead of `nonce.unknown`.
///
/// It also deletes webhook events queued more than `webhookRetention` ago (their bodies may carry a report): past the
/// whole retry schedule when this instance delivers webhooks, and past `retention` when it does not (a webhook the
/// operator turned off leaves nothing behind; an instance that still delivers gets `retention` to do so).
struct ExpiredRequestPurger: Service {
    let store: any RequestStore
    let interval: Duration
    let retention: TimeInterval
    let webhookRetention: TimeInterval
    let clock: ServerClock
    let logger: Logger

    init(store: any RequestStore, interval: Duration, retention: TimeInterval, webhookRetention: TimeInterval? = nil, clock: ServerClock,
         logger: Logger) {
        self.store = store
        self.interval = interval
        self.retention = retention
        self.webhookRetention = webhookRetention ?? retention
        self.clock = clock
        self.logger = logger
    }

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
        let events = try await store.purgeWebhooks(queuedBefore: now.addingTimeInterval(-webhookRetention))
        if events > 0 { logger.warning("webhook events discarded undelivered past their retention", metadata: ["count": "\(events)"]) }
        return count
    }
}
