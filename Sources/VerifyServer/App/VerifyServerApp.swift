import CBOR
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Tracing
import Verifier

/// A configured `verify-server`: the Hummingbird application plus its store, purger and metrics.
///
/// A `Service`, so it runs in a `ServiceGroup`; graceful shutdown stops accepting connections, lets in-flight requests
/// finish, then stops the purger and closes the store.
public struct VerifyServerApp: Service {
    /// The configuration the server was built with.
    public let configuration: ServerConfiguration
    /// The runtime in use now (it changes when the trust is reloaded).
    public var runtime: VerifierRuntime { runtimes.current }
    private let runtimes: RuntimeBox
    private let watcher: TrustFileWatcher
    private let logger: Logger
    /// The store as the handlers use it (metered).
    public let store: any RequestStore
    /// The server's metrics, as `/metrics` serves them.
    public let metrics: ServerMetrics
    private let application: Application<RouterResponder<ServerRequestContext>>
    private let listening: ListeningPort
    private let operatorListening: ListeningPort
    private let purger: ExpiredRequestPurger
    private let listRefresher: TrustListRefresher
    private let credentials: Credentials

    /// Loads the runtime from `configuration` and builds the server.
    ///
    /// Throws `ConfigurationProblems` when the configuration or its files have problems, or the store's error when
    /// `configuration.store` cannot be opened.
    ///
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - store: A store the caller opened and runs (tests); nil opens `configuration.store` and runs its services
    ///     with the server.
    ///   - clock: The clock for request expiry (tests move it).
    ///   - hooks: Test-only hooks into request handling.
    ///   - rereadConfiguration: Reads the configuration again as at start (SIGHUP, `reloadCredentials()`), for the API
    ///     keys and webhook secrets; nil: they stay as configured.
    ///   - formats: The formats the server serves (a test may register one of its own).
    ///   - logger: The logger for the server and its services.
    public static func make(configuration: ServerConfiguration, store: (any RequestStore)? = nil,
                            clock: ServerClock = .system, hooks: ServerHooks = ServerHooks(),
                            rereadConfiguration: (@Sendable () -> (ServerConfiguration, [String]))? = nil,
                            formats: FormatRegistry = .standard, logger: Logger) async throws -> VerifyServerApp {
        // Trust lists are judged on the server's clock from the start, as every reload judges them.
        let fixed = configuration.verificationTime
        let runtime = try VerifierRuntime.load(configuration, fetcher: nil, formats: formats, trustTime: { fixed ?? clock.now() })
        return try await make(runtime: runtime, store: store, clock: clock, hooks: hooks, rereadConfiguration: rereadConfiguration,
                              logger: logger)
    }

    /// Builds the server on an already loaded runtime.
    ///
    /// The parameters are those of `make(configuration:store:clock:hooks:logger:)`. Throws the store's error when
    /// `runtime.configuration.store` cannot be opened.
    public static func make(runtime: VerifierRuntime, store callerStore: (any RequestStore)? = nil,
                            clock: ServerClock = .system, hooks: ServerHooks = ServerHooks(),
                            rereadConfiguration: (@Sendable () -> (ServerConfiguration, [String]))? = nil,
                            logger: Logger) async throws -> VerifyServerApp {
        let configuration = runtime.configuration
        // Every line logged while serving a request names its client.
        let logger = ClientAddressLogHandler.wrapping(logger)
        warnAboutLegacyAPI(configuration, logger: logger)
        let metrics = ServerMetrics()
        let runtime = serving(runtime, clock: clock, metrics: metrics, logger: logger)
        let baseStore: any RequestStore = if let callerStore { callerStore } else {
            try await configuration.store.open(logger: logger, password: configuration.storePassword)
        }
        let outstanding = OutstandingRequests(maxTotal: configuration.maxOutstandingRequests,
                                              maxPerClient: configuration.maxOutstandingRequestsPerClient)
        let store = layeredStore(on: baseStore, configuration: configuration, outstanding: outstanding, metrics: metrics, hooks: hooks)
        let runtimes = runtimeBox(runtime, recordingIn: store, logger: logger)
        let listRefresher = TrustListRefresher(box: runtimes, metrics: metrics, logger: logger, now: clock.now,
                                               remembered: { try await store.vicalIssueIDs() }, wait: hooks.vicalRefreshWait)
        let credentials = Credentials(configuration, reread: rereadConfiguration)
        var handlers = ServerHandlers(
            configuration: configuration, runtimes: runtimes, store: store, outstanding: outstanding,
            metrics: metrics, clock: clock, hooks: hooks, logger: logger, credentials: credentials)
        handlers.webhooks = configuration.webhookSender(credentials: credentials, store: store, clock: clock, metrics: metrics, logger: logger,
                                                        backoff: hooks.webhookBackoff)
        let listening = ListeningPort()
        handlers.listening = listening
        // Readiness never waits on the store: a monitor pings it every second (at most storeTimeout each).
        let health = StoreHealth(overdue: configuration.storeTimeout + 2), monitor = StoreHealthMonitor(
            store: store, health: health, interval: .seconds(1), now: clock.now, logger: logger)
        handlers.health = health
        handlers.role = configuration.operatorListener == .private ? .public : .shared
        let router = makeRouter(handlers, metrics: metrics)
        let operatorListening = ListeningPort()
        let operatorListener = operatorServices(handlers, metrics: metrics, listening: operatorListening, logger: logger)
        let purger = ExpiredRequestPurger(store: store, interval: .seconds(configuration.purgeInterval),
                                          retention: configuration.requestTTL, webhookRetention: handlers.webhooks?.retention,
                                          clock: clock, logger: logger)
        // Services stop in reverse order: the HTTP server (added last by Hummingbird) drains first, then the others,
        // the operator listener (still answering scrapes during the drain) and the store last.
        let watcher = TrustFileWatcher(box: runtimes, interval: .milliseconds(Int64(configuration.trustWatchInterval * 1000)), logger: logger)
        let services: [any Service] = (callerStore == nil ? baseStore.services : []) + operatorListener
            + [monitor, purger, TrustReloadOnHangup(box: runtimes, logger: logger, also: { _ = credentials.reload(logger: logger) }), watcher]
            + backgroundServices(runtime: runtime, listRefresher: listRefresher, webhooks: handlers.webhooks)
        var application = publicApplication(router, configuration: configuration, services: services, listening: listening, logger: logger)
        application.beforeServerStarts {
            try await prepare(store, runtimes: runtimes, lists: listRefresher, operatorListening: operatorListener.isEmpty ? nil : operatorListening,
                              closingOnFailure: callerStore == nil ? baseStore : nil)
            // The store just answered: ready from the first request on, until the monitor's pings say otherwise.
            health.record(.init(reachable: true, at: clock.now()))
        }
        return VerifyServerApp(configuration: configuration, runtimes: runtimes, watcher: watcher, logger: logger, store: store, metrics: metrics,
                               application: application, listening: listening, operatorListening: operatorListening, purger: purger, listRefresher: listRefresher,
                               credentials: credentials)
    }

    /// The application of the public listener, running `services` beside it.
    private static func publicApplication(_ router: Router<ServerRequestContext>, configuration: ServerConfiguration, services: [any Service],
                                          listening: ListeningPort, logger: Logger) -> Application<RouterResponder<ServerRequestContext>> {
        listenerApplication(router, host: configuration.host, port: configuration.port, configuration: configuration, services: services,
                            logger: logger) { port in
            logger.info("verify-server listening on http://\(configuration.host):\(port)", metadata: [
                "store": "\(configuration.store.redacted)", "testMode": "\(configuration.testMode)",
            ])
            listening.set(port)
        }
    }

    /// A listener at `host:port` as every listener of the server is: HTTP/1 under the per-address connection cap and
    /// the idle timeout; `running` gets the bound port.
    static func listenerApplication(_ router: Router<ServerRequestContext>, host: String, port: Int, configuration: ServerConfiguration,
                                    services: [any Service] = [], logger: Logger,
                                    running: @escaping @Sendable (Int) -> Void) -> Application<RouterResponder<ServerRequestContext>> {
        Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionLimiter(limit: configuration.maxConnectionsPerIP).handler()],
                                                idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            services: services,
            onServerRunning: { channel in running(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// The private operator listener, when the configuration asks for one.
    private static func operatorServices(_ handlers: ServerHandlers, metrics: ServerMetrics, listening: ListeningPort,
                                         logger: Logger) -> [any Service] {
        guard handlers.configuration.operatorListener == .private else { return [] }
        return [OperatorListenerService(handlers, router: { makeRouter($0, metrics: metrics) }, listening: listening, logger: logger)]
    }

    /// The start-up warning while the deprecated unauthenticated routes answer.
    private static func warnAboutLegacyAPI(_ configuration: ServerConfiguration, logger: Logger) {
        guard configuration.legacyAPI.serves else { return }
        logger.warning("""
            legacyAPI is on: POST /v1/requests and POST /v1/verify answer anyone, without authentication; \
            move the backend to POST /v1/transactions and set legacyAPI: off
            """)
    }

    /// `runtime` as the server runs it: with the revocation fetcher when `revocationFetch` asks for one and the
    /// runtime has none, and judging VICALs and trusted lists on the server's clock when any are configured.
    private static func serving(_ runtime: VerifierRuntime, clock: ServerClock, metrics: ServerMetrics,
                                logger: Logger) -> VerifierRuntime {
        let configuration = runtime.configuration
        var runtime = runtime
        if configuration.revocationFetch, runtime.fetcher == nil {
            runtime = runtime.attaching(RevocationRefresh.fetcher(configuration, clock: clock, metrics: metrics, logger: logger))
        }
        if !configuration.vicals.isEmpty || !configuration.lotes.isEmpty {
            // VICALs are judged fresh or stale on the server's clock from the next reload on (start-up downloads reload).
            let fixed = configuration.verificationTime
            runtime = runtime.judgingVICALs(at: { fixed ?? clock.now() })
        }
        return runtime
    }

    /// The router: metrics, tracing and the client's address as middleware around the handlers' routes.
    private static func makeRouter(_ handlers: ServerHandlers, metrics: ServerMetrics) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        // Outermost, so the request counts and times include everything below, 404s for unknown paths too.
        router.add(middleware: HTTPMetricsMiddleware(metrics: metrics))
        // A span per request (method, path, status, body size; no headers, no body) for a user's tracer, when one is
        // bootstrapped (embedders bootstrap before making the app); without one, no no-op span per request.
        if !(InstrumentationSystem.tracer is NoOpTracer) { router.add(middleware: TracingMiddleware()) }
        // Before every route: the client (trustedProxies) for limits and logs, and the rate limit of the /v1/ API.
        router.add(middleware: ClientAddressMiddleware(configuration: handlers.configuration, clock: handlers.clock,
                                                       credentials: handlers.credentials, metrics: handlers.metrics, logger: handlers.logger))
        router.register(handlers)
        return router
    }

    /// The services that run only when configured: memory trimming, revocation refresh, VICAL and LoTE refresh, webhooks.
    private static func backgroundServices(runtime: VerifierRuntime, listRefresher: TrustListRefresher,
                                           webhooks: WebhookSender?) -> [any Service] {
        let configuration = runtime.configuration
        return (configuration.memoryTrimInterval > 0
                ? [AllocatorTrim(interval: .milliseconds(Int64(configuration.memoryTrimInterval * 1000)))] : [])
            + (runtime.fetcher.map { [RevocationRefresh(fetcher: $0)] } ?? [])
            + (configuration.trustLists.isEmpty ? [] : [listRefresher])
            + (webhooks.map { [WebhookService(sender: $0)] } ?? [])
    }

    /// `base` under the layers the handlers use. Sealing encrypts the state before it reaches the store (with a
    /// configured key); the metered layer also stops counting a request once it is consumed.
    private static func layeredStore(on base: any RequestStore, configuration: ServerConfiguration, outstanding: OutstandingRequests,
                                     metrics: ServerMetrics, hooks: ServerHooks) -> MeteredRequestStore {
        let sealed = SealedStateStore(base: base, key: configuration.requestStateKey)
        return MeteredRequestStore(base: sealed, metrics: metrics, outstanding: outstanding, timeout: .seconds(configuration.storeTimeout),
                                   timeLimit: TimeLimit(wait: hooks.storeDeadline), name: configuration.store.redacted)
    }

    /// The runtime's box. Accepted VICAL issue IDs go to the store, so a restart or another instance refuses an older
    /// list too.
    private static func runtimeBox(_ runtime: VerifierRuntime, recordingIn store: some RequestStore, logger: Logger) -> RuntimeBox {
        RuntimeBox(runtime) { [logger] raised in
            Task {
                for (provider, issueID) in raised {
                    do {
                        try await store.recordVICALIssueID(provider: provider, issueID: issueID)
                    } catch {
                        logger.error("could not record the accepted VICAL issue in the store", metadata: [
                            "provider": "\(TerminalText.escaped(provider))", "vicalIssueID": "\(issueID)", "error": "\(error)"])
                    }
                }
            }
        }
    }

    /// Before the server starts: the operator listener (when private) listening, the store's schema, the VICAL issue IDs
    /// and LoTE sequence numbers it remembers, and the first download of each list with a url. On failure `opened` (a
    /// store this server opened) is closed, since its services may never run.
    private static func prepare(_ store: some RequestStore, runtimes: RuntimeBox, lists: TrustListRefresher, operatorListening: ListeningPort?,
                                closingOnFailure opened: (any RequestStore)?) async throws {
        do {
            // The operator listener bound first: a port in use there stops the start before any client connects here.
            if let operatorListening { _ = try await operatorListening.wait() }
            try await store.prepare()
            // A list older than one this server (or another instance on the store) accepted refuses the start.
            if !runtimes.current.configuration.trustLists.isEmpty {
                let remembered = try await store.vicalIssueIDs()
                runtimes.remember(remembered)
                try await lists.prepare()
                let problems = runtimes.adoptRemembered(remembered)
                guard problems.isEmpty else { throw ConfigurationProblems(problems) }
            }
        } catch {
            if let sqlite = opened as? SQLiteRequestStore { try? await sqlite.close() }
            throw error
        }
    }

    /// Loads the keys, trust files and VICALs again (what SIGHUP does); returns whether the new trust is in use.
    ///
    /// On a problem the previous trust stays in use and `/readyz` reports the error.
    @discardableResult
    public func reloadTrust() -> Bool {
        runtimes.reload(logger: logger)
    }

    /// Reads the configuration again and takes its API keys (with their origins) and webhook secrets (what SIGHUP
    /// does besides reloading the trust); returns whether it did. A configuration with any problem leaves the ones in
    /// use, and the log says why.
    @discardableResult
    public func reloadCredentials() -> Bool {
        credentials.reload(logger: logger)
    }

    /// Downloads every VICAL and LoTE with a url now (what the periodic refresh does, jitter aside): a new list that
    /// verifies and is no rollback is taken into use; on a failure the list in use stays and `/readyz` says why.
    ///
    /// - Returns: the failures' categories by source (the URL without user info or query); empty when all are current.
    @discardableResult
    public func refreshTrustLists() async -> [String: String] {
        await listRefresher.refreshAll()
    }

    /// Looks at the trust files once (what the periodic check does) and reloads when they changed; returns whether it
    /// did.
    @discardableResult
    public func checkTrustFiles() -> Bool {
        watcher.checkOnce()
    }

    /// Empties the state of expired requests and deletes those that expired more than one `requestTTL` ago (what the
    /// periodic purge does); returns how many it deleted.
    ///
    /// Throws the store's error when it fails or does not answer within `storeTimeout`.
    public func purgeExpiredRequests() async throws -> Int {
        try await purger.purgeOnce()
    }

    /// Runs the server until its service group shuts it down.
    ///
    /// Throws when it cannot start, e.g. when the store's schema cannot be prepared, or `ListenFailure` when the address
    /// cannot be bound.
    public func run() async throws {
        defer {
            listening.finish()
            operatorListening.finish()
        }
        do {
            try await withGracefulShutdownHandler {
                try await application.run()
            } onGracefulShutdown: { [logger] in
                logger.info("verify-server shutting down: no new connections; finishing the requests in flight")
            }
        } catch {
            // The address that cannot be bound, named (ListenFailure), instead of the socket call and its errno.
            throw ListenFailure.from(error, host: configuration.host, port: configuration.port) ?? error
        }
        logger.info("verify-server stopped: requests in flight finished, store closed")
    }

    /// Waits until the server listens and returns the bound port (useful with port 0).
    ///
    /// Throws if the server stopped before listening.
    public func port() async throws -> Int {
        try await listening.wait()
    }

    /// Waits until the private operator listener listens and returns its bound port (useful with `operatorPort` 0).
    ///
    /// Throws if the server stopped before it listened, or at once under `operatorListener: shared` (no such listener).
    public func operatorPort() async throws -> Int {
        guard configuration.operatorListener == .private else { throw ListeningPort.NotListening() }
        return try await operatorListening.wait()
    }
}
