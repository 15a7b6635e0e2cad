import CryptoCore
import Foundation
import MdocTrust

/// What the fetcher holds for one URI: the last list fetched from it, how long that may be reused, and how the
/// latest attempt went.
struct CachedList: Sendable {
    enum Value: Sendable {
        case token(StatusToken)
        case crls([CertificateRevocationList])
    }

    var value: Value?
    /// Bytes the value takes: as downloaded, plus an inflated status list.
    var byteCount = 0
    /// When `value` was fetched, and until when it may be reused without fetching again.
    var fetchedAt: Date?
    var freshUntil: Date?
    var lastAttempt: Date?
    /// Why the latest attempt failed, as a category (report, `/readyz`); nil when it succeeded.
    var lastError: String?
    /// Completed attempts, so a verification that saw generation n does not fetch again after another one did.
    var generation = 0
    var lastUsed: Date

    func isFresh(at now: Date) -> Bool {
        guard value != nil, let freshUntil else { return false }
        return now < freshUntil
    }

    /// Whether the background refresh should fetch it now: in the last quarter of its lifetime (at least the refresh
    /// interval before its end), or failed and past the backoff.
    func isDue(at now: Date, settings: FetchSettings) -> Bool {
        if let lastAttempt, now.timeIntervalSince(lastAttempt) < settings.failureBackoff.seconds, lastError != nil { return false }
        guard let fetchedAt, let freshUntil else { return true }
        let margin = max(freshUntil.timeIntervalSince(fetchedAt) / 4, settings.refreshInterval.seconds)
        return now >= freshUntil.addingTimeInterval(-margin)
    }

    /// The cache lifetime of a token: until `exp`, `iat`/fetch time + `ttl`, or the defaults, whichever is first.
    static func lifetime(of token: StatusToken, fetchedAt: Date, settings: FetchSettings) -> Date {
        var end = fetchedAt.addingTimeInterval(settings.maxLifetime.seconds)
        let ttl = token.timeToLive.map { TimeInterval(min($0, UInt64(Int32.max))) } ?? settings.defaultLifetime.seconds
        end = min(end, fetchedAt.addingTimeInterval(max(ttl, settings.minimumLifetime.seconds)))
        if let expires = token.expires { end = min(end, expires) }
        return end
    }

    /// The cache lifetime of CRLs: until the earliest `nextUpdate`, or the longest lifetime.
    static func lifetime(of crls: [CertificateRevocationList], fetchedAt: Date, settings: FetchSettings) -> Date {
        var end = fetchedAt.addingTimeInterval(settings.maxLifetime.seconds)
        for crl in crls { if let next = crl.nextUpdate { end = min(end, next) } }
        return end
    }
}
