import Mdoc
import MdocModel
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
    /// The backend API was called without an API key, or with one that is not configured.
    ///
    /// Answered with HTTP 401 and `WWW-Authenticate: Bearer`.
    public static let authUnauthorized = ErrorCode("auth.unauthorized")
    /// The API key may not create this transaction: its format or origin is outside the key's configured scope.
    ///
    /// Answered with HTTP 403.
    public static let authForbidden = ErrorCode("auth.forbidden")
    /// The deprecated unauthenticated routes (`POST /v1/requests`, `POST /v1/verify`) are off (`legacyAPI: off`, the
    /// default): use the backend API, or turn them on.
    ///
    /// Answered with HTTP 404.
    public static let apiLegacyOff = ErrorCode("api.legacy_off")

    /// The codes only the server raises: `nonceUnknown`, `nonceReplayed`, `nonceExpired`, `storeUnavailable`,
    /// `requestsTooMany`, `requestsRateLimited`, `authUnauthorized`, `authForbidden` and `apiLegacyOff`.
    public static let serverCodes: [ErrorCode] = [.nonceUnknown, .nonceReplayed, .nonceExpired, .storeUnavailable, .requestsTooMany,
                                                  .requestsRateLimited, .authUnauthorized, .authForbidden, .apiLegacyOff]

    /// Every code the server can answer with.
    public static let allServerAnswers: [ErrorCode] = verificationCodes + serverCodes
}
