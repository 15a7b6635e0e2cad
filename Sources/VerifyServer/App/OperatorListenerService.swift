import Hummingbird
import Logging
import ServiceLifecycle

/// The private operator listener (`operatorListener: private`): `/metrics`, the detailed `/readyz`, the probes and
/// `/v1/operator/…` on `operatorHost`:`operatorPort`, apart from the API and the wallet-facing routes.
///
/// Runs among the server's services, started before and stopped after the public listener, so a scrape during the
/// drain still answers. The public listener binds only once this one listens: a port in use stops the start before
/// any client connects.
struct OperatorListenerService: Service {
    let application: Application<RouterResponder<ServerRequestContext>>
    let host: String
    let port: Int
    let listening: ListeningPort

    /// The listener for `handlers` (their `role` set to `.operator` here); `listening` learns the bound port.
    init(_ handlers: ServerHandlers, router makeRouter: (ServerHandlers) -> Router<ServerRequestContext>,
         listening: ListeningPort, logger: Logger) {
        var handlers = handlers
        handlers.role = .operator
        let configuration = handlers.configuration
        host = configuration.operatorHost
        port = configuration.operatorPort
        self.listening = listening
        application = Application(
            router: makeRouter(handlers),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionLimiter(limit: configuration.maxConnectionsPerIP).handler()],
                                                idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.operatorHost, port: configuration.operatorPort),
                                                    serverName: nil),
            onServerRunning: { [host = configuration.operatorHost] channel in
                let port = channel.localAddress?.port ?? configuration.operatorPort
                logger.info("verify-server operator endpoints (/metrics, /readyz, /v1/operator) on http://\(host):\(port)")
                listening.set(port)
            },
            logger: logger)
    }

    func run() async throws {
        // A listener that never bound releases the public listener's wait for it (which then does not start).
        defer { listening.finish() }
        do {
            try await application.run()
        } catch {
            throw ListenFailure.from(error, host: host, port: port, hostKey: "operatorHost", portKey: "operatorPort") ?? error
        }
    }
}
