import CBOR
import Foundation

/// How messages quote what a caller or a wallet sent: a short, escaped prefix and the full length, never the
/// whole input (a 900 KB origin must not come back in a 400 answer or a log line).
package enum InputQuote {
    package static let limit = 64

    /// `"prefix"` (escaped as a JSON string), followed by `… (N bytes)` when the text was cut.
    package static func short(_ text: String, limit: Int = limit) -> String {
        var out = ""
        guard text.utf8.count > limit else {
            CBORDiagnostic.appendQuoted(text, to: &out)
            return out
        }
        CBORDiagnostic.appendQuoted(String(text.unicodeScalars.prefix(limit).map(Character.init)), to: &out)
        return out + "… (\(text.utf8.count) bytes)"
    }
}

extension InputQuote {
    /// `url` without user info, query or fragment, for messages and records (those may carry an access token); text
    /// that is no URL is quoted short.
    package static func redactedURL(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return short(url) }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? short(url)
    }
}
