import Foundation
import Logging
import RevocationFetch
import ServiceLifecycle

/// Keeps fetched revocation lists fresh in the background, and stops the fetcher on shutdown.
struct RevocationRefresh: Service {
    let fetcher: RevocationFetcher

    /// The server's fetcher: its settings from the configuration, its cache dated by the verification clock (so a
    /// fixed test-mode time judges lists the way the checks do), its metrics in the server's registry.
    static func fetcher(_ configuration: ServerConfiguration, clock: ServerClock, metrics: ServerMetrics, logger: Logger) -> RevocationFetcher {
        var settings = configuration.fetchSettings
        settings.crlDistributionPoints = configuration.crlDistributionPoints
        let fixed = configuration.verificationTime
        return RevocationFetcher(settings: settings, now: { fixed ?? clock.now() }, metricsFactory: metrics.factory, logger: logger)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await fetcher.run() }
        await fetcher.shutdown()
    }
}
