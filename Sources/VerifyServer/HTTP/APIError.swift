import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Verifier

/// A rejection answered before (or instead of) a verification report: `{"error": {"code", "message"}}`, with its
/// HTTP status and the `outcome` label its metric carries.
struct APIError: Error, Sendable, HTTPResponseError {
    let status: HTTPResponse.Status
    let error: VerificationError
    /// The `outcome` dimension of `verifications_total` for a refused verify call.
    let outcome: String

    var code: ErrorCode { error.code }
    var message: String { error.message }

    private init(_ status: HTTPResponse.Status, _ error: VerificationError, outcome: String) {
        self.status = status
        self.error = error
        self.outcome = outcome
    }

    /// 400: the body or a field of it is unusable.
    static func malformed(_ message: String, code: ErrorCode = .inputMalformed) -> APIError {
        APIError(.badRequest, VerificationError(code, message), outcome: "malformed")
    }

    /// 415: the body is not of the media type the route takes; `message` names it.
    static func unsupportedMediaType(_ message: String) -> APIError {
        APIError(.unsupportedMediaType, VerificationError(.inputMalformed, message), outcome: "malformed")
    }

    /// 413: the body is over the configured limit.
    static func tooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, VerificationError(.inputMalformed, "request body is larger than the \(limit)-byte limit"),
                 outcome: "too_large")
    }

    /// 413: a part of the body is over a ceiling of its own; `message` names it.
    static func tooLarge(_ message: String) -> APIError {
        APIError(.contentTooLarge, VerificationError(.inputMalformed, message), outcome: "too_large")
    }

    /// 429: too many requests outstanding; `message` names the cap.
    static func tooManyRequests(_ message: String) -> APIError {
        APIError(.tooManyRequests, VerificationError(.requestsTooMany, message), outcome: "too_many")
    }

    /// 408: the body did not arrive within `bodyTimeout`.
    static func bodyTimeout(_ seconds: TimeInterval) -> APIError {
        APIError(.requestTimeout, VerificationError(.inputMalformed, "the request body did not arrive within \(seconds) s"),
                 outcome: "timeout")
    }

    /// 404: no such request.
    static let unknownRequest = APIError(
        .notFound, VerificationError(.nonceUnknown, "no such request (never created, or purged after expiry)"), outcome: "unknown")

    /// 409: the request was used before.
    static let replayed = APIError(
        .conflict, VerificationError(.nonceReplayed, "this request was already used by an earlier verify call"), outcome: "replayed")

    /// 410: the request expired unused.
    static let expired = APIError(
        .gone, VerificationError(.nonceExpired, "this request expired before its first verify call"), outcome: "expired")

    /// 404, 409 and 410 with a message of their own (the wallet-facing endpoint's).
    static func unknown(_ message: String) -> APIError { APIError(.notFound, VerificationError(.nonceUnknown, message), outcome: "unknown") }
    static func replayed(_ message: String) -> APIError { APIError(.conflict, VerificationError(.nonceReplayed, message), outcome: "replayed") }
    static func expired(_ message: String) -> APIError { APIError(.gone, VerificationError(.nonceExpired, message), outcome: "expired") }

    /// 401: no API key, or one that is not configured; `message` says which.
    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, VerificationError(.authUnauthorized, message), outcome: "unauthorized")
    }

    /// 403: the API key may not create this transaction (format or origin outside its scope); `message` names it.
    static func forbidden(_ message: String) -> APIError {
        APIError(.forbidden, VerificationError(.authForbidden, message), outcome: "forbidden")
    }

    /// 404: the deprecated route is off (`legacyAPI: off`).
    static let legacyOff = APIError(.notFound, VerificationError(.apiLegacyOff,
        "this deprecated route is off: create transactions with POST /v1/transactions (API key) and take the wallet's "
            + "answer at POST /v1/wallet/{requestId}/response, or set legacyAPI: on"), outcome: "legacy_off")

    /// 503: the request store did not answer in time.
    static let storeUnavailable = APIError(
        .serviceUnavailable, VerificationError(.storeUnavailable, "the request store is not reachable; try again"), outcome: "unavailable")

    var response: Response {
        Response.json(status, .object([("error", error.json)]))
    }

    /// The response, with `Retry-After` when `retryAfter` seconds are given (a 429).
    func response(retryAfter: Int?) -> Response {
        var response = response
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}

extension Response {
    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        json(status, bytes: value.serializedBytes())
    }

    /// A JSON response whose body is `bytes`, already serialized.
    static func json(_ status: HTTPResponse.Status, bytes: [UInt8]) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An embedded page, script or style sheet of media `type` under the Content-Security-Policy `policy`: not stored,
    /// not sniffed, no referrer sent.
    static func embeddedFile(_ bytes: [UInt8], type: String, policy: String) -> Response {
        var headers: HTTPFields = [.contentType: type, .contentSecurityPolicy: policy, .xContentTypeOptions: "nosniff", .cacheControl: "no-store"]
        if let referrer = HTTPFields.Element.Name("Referrer-Policy") { headers[referrer] = "no-referrer" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
