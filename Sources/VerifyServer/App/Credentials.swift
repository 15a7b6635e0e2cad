import CBOR
import Foundation
import Logging
import NIOConcurrencyHelpers

/// What an operator rotates without a restart: the backend API's keys (and with them the origins the wallet-facing
/// endpoint answers cross-origin) and the webhook's signing secrets. SIGHUP re-reads the configuration and swaps them
/// together; a configuration with any problem leaves the ones in use, and says why.
final class Credentials: Sendable {
    struct Current: Sendable {
        var apiKeys: [APIKey]
        var webhookSecrets: [WebhookSecret]
    }

    private let current: NIOLockedValueBox<Current>
    /// Reads the configuration again as at start (file and environment); nil: nothing to re-read (a library caller
    /// that built the configuration itself).
    private let reread: (@Sendable () -> (ServerConfiguration, [String]))?

    init(_ configuration: ServerConfiguration, reread: (@Sendable () -> (ServerConfiguration, [String]))?) {
        current = NIOLockedValueBox(Current(apiKeys: configuration.apiKeys, webhookSecrets: configuration.webhookSecrets))
        self.reread = reread
    }

    var apiKeys: [APIKey] { current.withLockedValue { $0.apiKeys } }
    var webhookSecrets: [WebhookSecret] { current.withLockedValue { $0.webhookSecrets } }

    /// Re-reads the configuration and takes its API keys and webhook secrets when it has no problem; returns whether it
    /// did. A webhook turned on or off needs a restart, so the secrets' presence must stay as it is.
    @discardableResult
    func reload(logger: Logger) -> Bool {
        guard let reread else { return false }
        let (fresh, readProblems) = reread()
        var problems = readProblems + fresh.problems
        if fresh.webhookSecrets.isEmpty != webhookSecrets.isEmpty {
            problems.append("webhookSecretFile was \(webhookSecrets.isEmpty ? "added" : "removed"): turning the webhook on or off needs a restart")
        }
        guard problems.isEmpty else {
            // A problem may quote a value from the file: escaped like every other log line.
            logger.error("configuration reload refused: the API keys and webhook secrets in use stay",
                         metadata: ["problems": "\(TerminalText.escaped(problems.joined(separator: "; ")))"])
            return false
        }
        current.withLockedValue { $0 = Current(apiKeys: fresh.apiKeys, webhookSecrets: fresh.webhookSecrets) }
        logger.info("API keys and webhook secrets reloaded", metadata: [
            "apiKeys": "\(fresh.apiKeys.count)", "webhookSecrets": "\(fresh.webhookSecrets.count)",
        ])
        return true
    }
}
