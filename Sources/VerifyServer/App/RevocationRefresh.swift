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
        var settings = FetchSettings()
        settings.timeout = .milliseconds(Int64(configuration.revocationFetchTimeout * 1000))
        settings.crlDistributionPoints = configuration.crlDistributionPoints
        settings.allowedDestinations = configuration.revocationFetchAllow.compactMap(FetchDestination.init)
        settings.caFile = configuration.outboundCAFile
        let fixed = configuration.verificationTime
        return RevocationFetcher(settings: settings, now: { fixed ?? clock.now() }, metricsFactory: metrics.factory, logger: logger)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await fetcher.run() }
        await fetcher.shutdown()
    }
}
