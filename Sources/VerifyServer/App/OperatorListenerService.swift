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
        let host = configuration.operatorHost
        self.host = host
        port = configuration.operatorPort
        self.listening = listening
        application = VerifyServerApp.listenerApplication(makeRouter(handlers), host: host, port: port, configuration: configuration,
                                                          logger: logger) { port in
            logger.info("verify-server operator endpoints (/metrics, /readyz, /v1/operator) on http://\(host):\(port)")
            listening.set(port)
        }
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
