import Foundation

/// Bounds and cache lifetimes for fetching revocation lists. The defaults suit a server: a list is at most a few MB,
/// an issuer's list server answers within seconds, and a list nobody asked for in a day is dropped.
public struct FetchSettings: Sendable {
    /// Time for one fetch, redirects included.
    public var timeout: Duration = .seconds(5)
    /// Largest response body read; a larger one is a failed fetch, not an allocation.
    public var maxBytes: Int = 16 << 20
    /// Redirects followed (each to http or https only).
    public var maxRedirects: Int = 3
    /// Cache lifetime of a token without `ttl` or `exp`.
    public var defaultLifetime: Duration = .seconds(300)
    /// Shortest time a fetched list is reused, whatever a tiny or zero `ttl` says (never past the token's `exp` or the
    /// CRL's `nextUpdate`): no list is fetched again for every verification.
    public var minimumLifetime: Duration = .seconds(30)
    /// Longest a fetched list is reused, whatever its `ttl`, `exp` or `nextUpdate` allow.
    public var maxLifetime: Duration = .seconds(86_400)
    /// After a failed fetch, lookups report that failure for this long before a verification triggers another try.
    public var failureBackoff: Duration = .seconds(30)
    /// How often the background refresh looks for lists near the end of their lifetime.
    public var refreshInterval: Duration = .seconds(30)
    /// Lists not looked up for this long are no longer refreshed and are dropped.
    public var idleLimit: Duration = .seconds(86_400)
    /// Most lists kept; the least recently used one goes first.
    public var maxEntries: Int = 1_000
    /// Most bytes the kept lists may take (downloaded and inflated); the least recently used ones go first.
    public var maxCachedBytes: Int = 64 << 20
    /// Destinations reached although not public (lists hosted internally): host names or CIDR networks. Everything
    /// else that is not a public unicast address is refused, on every redirect and after name resolution.
    public var allowedDestinations: [FetchDestination] = []
    /// Also fetch CRLs from the document signer's (and intermediates') CRL distribution points.
    public var crlDistributionPoints: Bool = false
    /// A PEM file of CA certificates an https list host may also chain to, besides the system's store (a host on a
    /// private CA); nil: the system's store only.
    public var caFile: String?

    /// Creates the default settings; set the properties to change them.
    public init() {}
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
