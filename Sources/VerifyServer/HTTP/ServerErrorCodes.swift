import Mdoc
import Verifier

// Codes only the server raises: the single-use request behind a nonce, and its store.
extension ErrorCode {
    /// No such request (never created, or purged after expiry).
    ///
    /// Answered with HTTP 404.
    public static let nonceUnknown = ErrorCode("nonce.unknown")
    /// The request was already used by an earlier verify call.
    ///
    /// Answered with HTTP 409.
    public static let nonceReplayed = ErrorCode("nonce.replayed")
    /// The request expired before its first verify call.
    ///
    /// Answered with HTTP 410.
    public static let nonceExpired = ErrorCode("nonce.expired")
    /// The request store did not answer in time; the request was not consumed by this call.
    ///
    /// Answered with HTTP 503.
    public static let storeUnavailable = ErrorCode("store.unavailable")
    /// Too many requests are outstanding (created, neither verified nor expired), from this client or in total.
    ///
    /// Answered with HTTP 429 and `Retry-After`.
    public static let requestsTooMany = ErrorCode("requests.too_many")
    /// The client sent more API requests than `rateLimit` and `rateLimitBurst` allow.
    ///
    /// Answered with HTTP 429 and `Retry-After`.
    public static let requestsRateLimited = ErrorCode("requests.rate_limited")

    /// The codes only the server raises: `nonceUnknown`, `nonceReplayed`, `nonceExpired`, `storeUnavailable`,
    /// `requestsTooMany` and `requestsRateLimited`.
    public static let serverCodes: [ErrorCode] = [.nonceUnknown, .nonceReplayed, .nonceExpired, .storeUnavailable, .requestsTooMany,
                                                  .requestsRateLimited]

    /// Every code the server can answer with.
    public static let allServerAnswers: [ErrorCode] = verificationCodes + serverCodes
}
