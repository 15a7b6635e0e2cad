import Foundation
import MdocModel
import RevocationFetch

extension WebhookSender {
    /// Whether `url`'s host is one `allow` names: a host name (any case), or a network holding the address written
    /// out. A transaction's own URL is checked at create and again at every delivery, so a host the operator removed
    /// from `webhookAllow` gets no event queued before.
    static func allowListed(_ url: String, allow: [FetchDestination]) -> Bool {
        guard plainAuthority(url), let host = URLComponents(string: url)?.host, !host.isEmpty else { return false }
        let literal = (host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host).lowercased()
        if let address = IPAddress(literal) {
            return allow.contains { $0.network?.contains(address) == true }
        }
        return allow.contains { $0.host == literal }
    }

    /// Whether `url` is printable ASCII without a backslash, and its authority (up to the first `/` or `?`) is a plain
    /// `host[:port]`: letters, digits, `.` and `-`, or a bracketed IPv6 address. The host judged here must be the one
    /// libcurl connects to, so nothing two URL parsers could split differently (`@`, `%`, `\`, spaces) is taken.
    static func plainAuthority(_ url: String) -> Bool {
        guard url.utf8.allSatisfy({ (0x21 ..< 0x7F).contains($0) && $0 != UInt8(ascii: "\\") }) else { return false }
        let lower = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix) else { return false }
        let authority = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
        var host = Substring(authority)
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let port = authority[authority.index(after: colon)...]
            guard (1 ... 5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            host = authority[..<colon]
        }
        if host.hasPrefix("[") {
            return host.hasSuffix("]") && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !host.isEmpty && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}

extension ServerHandlers {
    /// A transaction's own `webhookURL` (`POST /v1/transactions`): its event goes there instead of the configured
    /// `webhookURL`, signed with the same secrets. It needs the webhook configured; it is an absolute https URL (http
    /// in test mode) of at most 2,048 printable ASCII bytes, with a plain `host[:port]` (no user information, `%` or
    /// `\`) and no fragment, whose host `webhookAllow` names (a
    /// host name, or a network holding the address written out): a backend sends events only where the operator
    /// listed, never to any host of its choosing. At each delivery the destination is checked again, as the
    /// configured URL's is.
    func transactionWebhookURL(_ text: String?) throws(APIError) -> String? {
        guard let text else { return nil }
        guard webhooks != nil else {
            throw APIError.malformed("webhookURL needs the server's webhook (webhookURL and webhookSecretFile in its configuration)")
        }
        guard text.utf8.count <= 2_048, WebhookSender.plainAuthority(text), let url = URLComponents(string: text),
              let scheme = url.scheme?.lowercased(), let host = url.host,
              !host.isEmpty, url.fragment == nil, url.user == nil, url.password == nil,
              scheme == "https" || (scheme == "http" && configuration.testMode)
        else {
            throw APIError.malformed("webhookURL must be an absolute https URL (http only in test mode) of at most 2,048 printable "
                + "ASCII bytes, its host a plain name or address (no user information, `%`, `\\` or fragment)")
        }
        guard WebhookSender.allowListed(text, allow: configuration.webhookAllow.compactMap(FetchDestination.init)) else {
            throw APIError.malformed("webhookURL's host \(InputQuote.short(host)) is not in webhookAllow: a transaction's events go "
                + "only to destinations the operator lists there")
        }
        return text
    }
}
