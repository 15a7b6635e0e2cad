import Foundation
import MdocModel
import RevocationFetch

extension WebhookSender {
    /// The key of a transaction's own webhook destination in its kept state (read back when its event is queued).
    static let urlKey = "server.webhookURL"
}

extension ServerHandlers {
    /// A transaction's own `webhookURL` (`POST /v1/transactions`): its event goes there instead of the configured
    /// `webhookURL`, signed with the same secrets. It needs the webhook configured; it is an absolute https URL (http
    /// in test mode) without user information or fragment, of at most 2,048 bytes; an address written out must be a
    /// public one or one `webhookAllow` names. A host name is resolved and checked, as the configured URL's, at every
    /// delivery.
    func transactionWebhookURL(_ text: String?) throws(APIError) -> String? {
        guard let text else { return nil }
        guard webhooks != nil else {
            throw APIError.malformed("webhookURL needs the server's webhook (webhookURL and webhookSecretFile in its configuration)")
        }
        guard text.utf8.count <= 2_048, let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host,
              !host.isEmpty, url.fragment == nil, url.user == nil, url.password == nil,
              scheme == "https" || (scheme == "http" && configuration.testMode)
        else {
            throw APIError.malformed("webhookURL must be an absolute https URL (http only in test mode) without fragment or user "
                + "information, of at most 2,048 bytes")
        }
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let address = IPAddress(literal), !FetchDestination.isPublic(address.bytes),
           !configuration.webhookAllow.contains(where: { IPNetwork($0)?.contains(address) == true }) {
            throw APIError.malformed("webhookURL names \(InputQuote.short(literal)), which is not a public address: webhooks reach "
                + "only public addresses unless webhookAllow names it")
        }
        return text
    }
}
