import Foundation
import Verifier

/// The server's own members of a request's kept state, beside the format's: a transaction's same-device page
/// (`redirectUri` of `POST /v1/transactions`) and its own webhook destination (`webhookURL`).
struct ServerKeptState: Codable, Equatable {
    /// The page the wallet returns the user to after a by-reference answer.
    var redirectURI: String?
    /// Where this transaction's result event goes instead of the configured webhook.
    var webhookURL: String?

    enum CodingKeys: String, CodingKey {
        case redirectURI = "server.redirectUri"
        case webhookURL = "server.webhookURL"
    }

    /// The server's members of `state`, read straight from its members; a member that is absent or not text is none.
    init(_ state: KeptState) {
        let value = state.value
        self.init(redirectURI: value[CodingKeys.redirectURI.rawValue]?.string, webhookURL: value[CodingKeys.webhookURL.rawValue]?.string)
    }

    init(redirectURI: String? = nil, webhookURL: String? = nil) {
        self.redirectURI = redirectURI
        self.webhookURL = webhookURL
    }
}
