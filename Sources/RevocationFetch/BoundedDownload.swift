import Foundation

/// One bounded GET through the fetcher's download: http or https only, the settings' timeout, size limit, redirect
/// limit and destination policy (only public addresses unless `allowedDestinations` names them, checked after name
/// resolution and on every redirect). For other signed lists a front-end keeps current, such as VICALs.
public struct BoundedDownload: Sendable {
    /// Why a download failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, stable enough for `/readyz`, metrics and scripts.
        public enum Category: String, Sendable {
            /// No usable answer: refused connection, name not resolved, timeout, TLS failure, an HTTP error status.
            case unreachable
            /// The URL, a redirect or the address a name resolved to is not an allowed destination.
            case refusedDestination = "refused_destination"
            /// The body is larger than the settings' `maxBytes` (declared or sent).
            case tooLarge = "too_large"
        }

        /// The category.
        public let category: Category
        /// The detail, for the log only: it may name internal addresses or echo the server's answer.
        public let detail: String

        /// Creates a failure of `category` with the detail for the log.
        public init(category: Category, detail: String) {
            self.category = category
            self.detail = detail
        }

        /// The category's name.
        public var description: String { category.rawValue }
    }

    /// The bounds and the destination policy.
    public let settings: FetchSettings

    /// Creates a download with the settings' timeout, `maxBytes`, `maxRedirects` and `allowedDestinations`.
    public init(settings: FetchSettings = FetchSettings()) {
        self.settings = settings
    }

    /// Downloads `url`; the body is at most `settings.maxBytes` bytes.
    ///
    /// - Throws: `Failure` when the URL is not http(s), a destination is refused, the body is too large, or there is no
    ///   200 answer within the timeout.
    public func get(_ url: String, accept: String) async throws(Failure) -> [UInt8] {
        do {
            return try await ListDownload(settings: settings).get(url, accept: accept)
        } catch {
            // The download itself raises `badList` only for a body over the limit.
            let category: Failure.Category = switch error.category {
            case .unreachable: .unreachable
            case .refusedDestination: .refusedDestination
            case .badList: .tooLarge
            }
            throw Failure(category: category, detail: error.detail)
        }
    }
}
