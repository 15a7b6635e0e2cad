import Foundation

/// One bounded GET of a revocation list on the system's libcurl: http or https only (on every redirect too), at most
/// `maxRedirects` redirects, `maxBytes` of body and `timeout` in all, and only to destinations the policy allows —
/// checked on the address each connection actually goes to, after name resolution, so a name that resolves to a
/// private address (DNS rebinding included) is refused like the address itself. The request carries nothing but the
/// URI the issuer published: never the index, the document or anything about the holder.
struct ListDownload: Sendable {
    let settings: FetchSettings

    /// Why a fetch failed: a category for the report, `/readyz` and the caller, and the detail for the log only (it may
    /// name internal addresses or echo the server's answer).
    struct Failure: Error, CustomStringConvertible {
        enum Category: String, Sendable {
            /// No answer: refused connection, name not resolved, timeout, TLS failure, HTTP error status.
            case unreachable
            /// The URI, a redirect or the address a name resolved to is not an allowed destination.
            case refusedDestination = "refused destination"
            /// An answer that is not a list: too large, not a token, not a CRL.
            case badList = "bad list"
        }

        let category: Category
        let detail: String

        init(_ category: Category, _ detail: String) {
            self.category = category
            self.detail = detail
        }

        var description: String { category.rawValue }
    }

    func get(_ uri: String, accept: String) async throws(Failure) -> [UInt8] {
        let deadline = ContinuousClock.now + settings.timeout
        var current = try Self.httpURL(uri)
        for _ in 0...settings.maxRedirects {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw Failure(.unreachable, "no answer within \(settings.timeout.seconds) s") }
            let hop = await OutboundHTTP.onOwnThread { [settings, current] in
                Self.perform(current, accept: accept, timeout: remaining, settings: settings)
            }
            switch hop {
            case .body(let bytes): return bytes
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw Failure(.unreachable, "a redirect without a usable Location")
                }
                current = try Self.httpURL(next.absoluteString)
            case .failed(let failure): throw failure
            }
        }
        throw Failure(.unreachable, "more than \(settings.maxRedirects) redirects")
    }

    private enum Hop: Sendable {
        case body([UInt8])
        case redirect(String)
        case failed(Failure)
    }

    /// One request, blocking (libcurl's easy interface), on the calling thread.
    private static func perform(_ url: URL, accept: String, timeout: Duration, settings: FetchSettings) -> Hop {
        var request = OutboundHTTP.Request(url.absoluteString, timeout: timeout, maxBytes: settings.maxBytes)
        request.headers = [("Accept", accept)]
        request.userAgent = "WalletVerifier revocation fetch"
        switch OutboundHTTP.perform(request, policy: OutboundPolicy(allow: settings.allowedDestinations, caFile: settings.caFile)) {
        case let .refused(host, address):
            return .failed(Failure(.refusedDestination, "\(host) resolved to \(address), which is not a public address "
                                   + "(allow it with revocationFetchAllow)"))
        case .tooLarge: return .failed(Failure(.badList, "the answer is larger than \(settings.maxBytes) bytes"))
        case .failed(_, timedOut: true): return .failed(Failure(.unreachable, "no answer within \(settings.timeout.seconds) s"))
        case .failed(let why, timedOut: false): return .failed(Failure(.unreachable, why))
        case .answered(let answer) where (300 ..< 400).contains(answer.status):
            guard !answer.locationTooLong else { return .failed(Failure(.unreachable, "HTTP \(answer.status) with a Location over 2 KB")) }
            guard let location = answer.location else { return .failed(Failure(.unreachable, "HTTP \(answer.status) without a Location")) }
            return .redirect(location)
        case .answered(let answer):
            guard answer.status == 200 else { return .failed(Failure(.unreachable, "HTTP \(answer.status)")) }
            return .body(answer.body)
        }
    }

    static func httpURL(_ text: String) throws(Failure) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else { throw Failure(.refusedDestination, "\(text.prefix(200)) is not an http or https URL") }
        return url
    }
}

/// `body` with `text` as a C string, or with NULL for nil.
package func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
