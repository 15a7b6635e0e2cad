/// The hosts that name this machine, the only ones a URL the verifier publishes to a wallet (a request object's
/// `request_uri` and `response_uri`, the server's `walletBaseURL`) may reach over plain http: a local test.
package enum LoopbackHost {
    /// Whether `host` (as `URLComponents` gives it) names this machine.
    package static func contains(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) }
}
