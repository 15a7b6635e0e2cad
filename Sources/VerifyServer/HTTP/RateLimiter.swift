import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import NIOConcurrencyHelpers
import RevocationFetch
import Verifier

/// A token bucket per client address: `rate` requests a second on average, up to `burst` at once.
///
/// A bucket is forgotten once it has filled up again, so the table holds only clients seen within the last
/// `burst / rate` seconds; past `maxTracked` clients a new one is let through untracked (as a fresh bucket would).
final class RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    private let maxTracked: Int
    private let now: @Sendable () -> Double
    private let state = NIOLockedValueBox(State())

    private struct Bucket {
        var tokens: Double
        var updated: Double
        /// Whether the last request was refused (so a client's refusals are logged once, when they start).
        var refusing = false
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        var sweepAt = 1024
        var latest = -Double.infinity
    }

    /// The outcome of one request.
    enum Decision: Equatable {
        case allowed
        /// Refused; the client may retry after `retryAfter` whole seconds. `first` when the previous one was allowed.
        case refused(retryAfter: Int, first: Bool)
    }

    init(rate: Double, burst: Int, maxTracked: Int = 100_000, now: @escaping @Sendable () -> Double) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.maxTracked = maxTracked
        self.now = now
    }

    /// Takes one token from `client`'s bucket.
    func take(_ client: String) -> Decision {
        state.withLockedValue { state in
            // A clock that steps back never refills a bucket twice.
            let time = max(now(), state.latest)
            state.latest = time
            if state.buckets.count >= state.sweepAt {
                state.buckets = state.buckets.filter { $0.value.tokens + (time - $0.value.updated) * rate < burst }
                state.sweepAt = max(1024, state.buckets.count * 2)
            }
            guard var bucket = state.buckets[client] ?? (state.buckets.count < maxTracked ? Bucket(tokens: burst, updated: time) : nil)
            else { return .allowed }
            bucket.tokens = min(burst, bucket.tokens + (time - bucket.updated) * rate)
            bucket.updated = time
            let decision: Decision
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                bucket.refusing = false
                decision = .allowed
            } else {
                decision = .refused(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))), first: !bucket.refusing)
                bucket.refusing = true
            }
            state.buckets[client] = bucket
            return decision
        }
    }
}

/// Finds each request's client (`ClientAddressResolver`), records it for per-client limits and log lines, and applies
/// the rate limits to every route under `/v1/` except the operator's: per API key for a request that carries a
/// configured key (`apiKeyRateLimit`: a backend is not one client), per client address for every other.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let resolver: ClientAddressResolver
    let limiter: RateLimiter?
    let keyLimiter: RateLimiter?
    let credentials: Credentials?
    let metrics: ServerMetrics?
    let logger: Logger

    /// The middleware `configuration` asks for; its rate limits read `clock` (tests move it), the keys `credentials`.
    init(configuration: ServerConfiguration, clock: ServerClock, credentials: Credentials? = nil, metrics: ServerMetrics? = nil,
         logger: Logger) {
        // `ServerConfiguration.problems` refused bad entries before the server is made.
        resolver = ClientAddressResolver(trustedProxies: configuration.trustedProxies, header: configuration.trustedProxyHeader)
            ?? ClientAddressResolver(trustedProxies: [], header: configuration.trustedProxyHeader)!
        let now: @Sendable () -> Double = { clock.now().timeIntervalSinceReferenceDate }
        limiter = configuration.rateLimit > 0 ? RateLimiter(rate: configuration.rateLimit, burst: configuration.rateLimitBurst, now: now) : nil
        keyLimiter = configuration.apiKeyRateLimit > 0
            ? RateLimiter(rate: configuration.apiKeyRateLimit, burst: configuration.apiKeyRateLimitBurst, now: now) : nil
        self.credentials = credentials
        self.metrics = metrics
        self.logger = logger
    }

    /// The limiter and bucket a limited request counts in: its API key's when it carries a configured one (nil
    /// limiter: keys are not limited), else its address's.
    func bucket(_ request: Request, client: String) -> (limiter: RateLimiter?, bucket: String, perKey: Bool) {
        if let credentials, request.headers[.authorization] != nil,
           case .authenticated(let key) = APIKeyAuthenticator(keys: credentials.apiKeys).authenticate(request) {
            return (keyLimiter, "key:\(key.id)", true)
        }
        return (limiter, client, false)
    }

    /// Whether the rate limit applies to `path`: the API under /v1/, not the operator's routes. Read by segments, as
    /// the router reads it (`//v1//requests` is `/v1/requests` to it).
    static func isLimited(_ path: String) -> Bool {
        var segments = path.split(separator: "/", omittingEmptySubsequences: true).makeIterator()
        return segments.next() == "v1" && segments.next() != "operator"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let peer = IPAddress(context.peer)
        let name = resolver.header.rawValue
        let lines = resolver.trusted.isEmpty ? [] : request.headers.filter { $0.name.canonicalName == name }.map(\.value)
        let client = resolver.client(peer: peer, headerLines: lines)
        context.resolvedClient = client
        let text = client?.description ?? "unknown"
        return try await RequestClient.$address.withValue(text) {
            if Self.isLimited(request.uri.path) {
                let (limiter, bucket, perKey) = self.bucket(request, client: context.client)
                if let limiter, case .refused(let seconds, let first) = limiter.take(bucket) {
                    if first {
                        logger.notice(perKey ? "API key rate limited" : "client rate limited",
                                      metadata: ["rateLimit": "\(limiter.rate)", "burst": "\(Int(limiter.burst))"])
                    }
                    metrics?.limitRefused(perKey ? "rate_per_key" : "rate_per_client")
                    return Self.refusal(retryAfter: seconds, limiter: limiter, perKey: perKey)
                }
            }
            return try await next(request, context)
        }
    }

    /// 429 with `Retry-After` and the `requests.rate_limited` error.
    static func refusal(retryAfter: Int, limiter: RateLimiter, perKey: Bool = false) -> Response {
        let who = perKey ? "this API key" : "this client"
        let settings = perKey ? "apiKeyRateLimit, apiKeyRateLimitBurst" : "rateLimit, rateLimitBurst"
        let error = VerificationError(.requestsRateLimited, "\(who) sent more than \(limiter.rate.formatted()) requests a second "
            + "(burst \(Int(limiter.burst))) to the API (\(settings)); retry after \(retryAfter) s")
        var response = Response.json(.tooManyRequests, .object([("error", error.json)]))
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }
}

private extension Double {
    /// `20` rather than `20.0`; fractions as written.
    func formatted() -> String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
