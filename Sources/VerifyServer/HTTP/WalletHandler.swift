import CBOR
import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import Verifier

/// Cross-origin answers of the wallet-facing endpoint: only to the configured origins (every API key's `origins`, and
/// the demo's), each echoed exactly with `Vary: Origin`; never `*` or `null`, never with credentials. The backend API
/// answers no cross-origin request. CORS only lets a page read the answer: the client secret is the access check.
struct CrossOrigin: Sendable {
    let allowed: Set<String>

    init(configuration: ServerConfiguration, apiKeys: [APIKey]) {
        var allowed = Set(apiKeys.flatMap(\.origins))
        if configuration.testMode, let demo = configuration.demoOrigin { allowed.insert(demo) }
        self.allowed = allowed
    }

    /// The request's `Origin` when it is one of the allowed ones.
    func allowedOrigin(of request: Request) -> String? {
        guard let origin = request.headers[.origin], origin != "null", allowed.contains(origin) else { return nil }
        return origin
    }

    /// Adds `Access-Control-Allow-Origin` for an allowed origin, and `Vary: Origin` whatever the origin.
    func decorate(_ response: inout Response, for request: Request) {
        response.headers[.vary] = "Origin"
        if let origin = allowedOrigin(of: request) { response.headers[.accessControlAllowOrigin] = origin }
    }

    /// `OPTIONS` preflight: 204; for an allowed origin, the method, headers and how long the browser may cache it.
    func preflight(_ request: Request) -> Response {
        var response = Response(status: .noContent)
        decorate(&response, for: request)
        if response.headers[.accessControlAllowOrigin] != nil {
            response.headers[.accessControlAllowMethods] = "POST"
            response.headers[.accessControlAllowHeaders] = "Content-Type, X-Client-Secret"
            response.headers[.accessControlMaxAge] = "600"
        }
        return response
    }
}

extension ServerHandlers {
    /// `POST /v1/wallet/{requestId}/response`, no credentials but the transaction's `X-Client-Secret`: consumes the
    /// transaction (first answer only, whatever its outcome), verifies the wallet's answer, keeps the result for the
    /// backend, and tells the page only `{"status": "accepted" | "rejected"}`. An unknown ID and a wrong or missing
    /// secret are the same 404; a second answer 409, an expired transaction 410.
    func walletResponse(_ request: Request, id: String?) async -> Response {
        var response = await walletAnswer(request, id: id)
        response.headers[.cacheControl] = "no-store"
        CrossOrigin(configuration: configuration, apiKeys: credentials.apiKeys).decorate(&response, for: request)
        return response
    }

    private func walletAnswer(_ request: Request, id: String?) async -> Response {
        let start = ContinuousClock.now
        // Unhashed and unlooked-up when absent or oversized: the same 404 as a wrong secret.
        guard let id, !id.isEmpty, id.unicodeScalars.count <= 128,
              let secret = request.headers[ClientSecret.header], !secret.isEmpty, secret.utf8.count <= ClientSecret.longestHeader
        else { return refuse(.unknownWalletRequest, requestId: id, start: start) }
        let logID = Self.loggable(id)
        let answer: WalletAnswer
        do throws(APIError) {
            answer = try WalletAnswer(try await bodies.collect(request).readableBytesView)
        } catch {
            return refuse(error, requestId: logID, start: start)
        }
        let outcome: ConsumeOutcome
        do throws(APIError) {
            outcome = try await fromStore("consume", ["requestId": "\(logID)"]) {
                try await store.consume(id: id, clientSecretHash: ClientSecret.hash(secret), now: clock.now(), deadline: .distantFuture)
            }
        } catch {
            return refuse(error, requestId: logID, start: start)
        }
        let stored: StoredRequest
        switch outcome {
        case .unknown: return refuse(.unknownWalletRequest, requestId: logID, start: start)
        case .replayed:
            return refuse(.walletReplayed, requestId: logID, format: await storedFormat(id, after: .walletReplayed), start: start)
        case .expired:
            return refuse(.walletExpired, requestId: logID, format: await storedFormat(id, after: .walletExpired), start: start)
        case .consumed(let request): stored = request
        }

        switch await verifyAndKeep(answer.response(for: stored.format, wire: descriptor(stored.format)?.wire).map(PrecheckedAnswer.init), of: stored, responseCodeHash: nil, logID: logID, start: start) {
        case .success(let report):
            // The page learns the outcome only: the codes and elements describe the user's document, for the backend.
            return Response.json(.ok, .object([("status", .string(report.verified ? "accepted" : "rejected"))]))
        case .failure(let error):
            return error.response
        }
    }

    /// Verifies `answer` for the consumed `stored` and keeps the result, with its webhook event, for the backend (the
    /// result readable only with the `response_code` whose hash is `responseCodeHash`, when given); the report, or 503
    /// when the store cannot keep it.
    func verifyAndKeep(_ answer: Result<PrecheckedAnswer, VerificationError>, of stored: StoredRequest, responseCodeHash: String?, logID: String,
                       start: ContinuousClock.Instant) async -> Result<VerificationReport, APIError> {
        let report = await verifyAndCount(answer, of: stored, log: "wallet answer verified",
                                          metadata: ["requestId": "\(logID)", "keyId": "\(stored.apiKeyID ?? "-")"], start: start)
        let result = StoredResult(verified: report.verified,
                                  report: String(decoding: report.jsonBytes(leading: [("requestId", stored.id)]), as: UTF8.self),
                                  responseCodeHash: responseCodeHash)
        // The webhook event joins the store's outbox with the result, in one step: kept together or not at all.
        var event = webhooks?.event(requestId: stored.id, status: result.status, report: result.report, at: clock.now())
        event?.url = ServerKeptState(stored.state).webhookURL
        do {
            try await store.recordResult(id: stored.id, result: result, webhook: event)
        } catch {
            logger.error("request store could not keep the result", metadata: ["requestId": "\(logID)", "error": "\(TerminalText.escaped("\(error)"))"])
            return .failure(.storeUnavailable)
        }
        webhooks?.poke()
        return .success(report)
    }

    /// Verifies `answer` for the consumed `stored` (a precheck's failure is a rejected report), counts it and logs it as
    /// `message` with `metadata`, the format, outcome and code.
    func verifyAndCount(_ answer: Result<PrecheckedAnswer, VerificationError>, of stored: StoredRequest, log message: Logger.Message,
                        metadata: Logger.Metadata, start: ContinuousClock.Instant) async -> VerificationReport {
        if let hook = hooks.beforeVerification { await hook() }
        let report: VerificationReport
        switch answer {
        case .success(let response): report = await verificationReport(response, of: stored)
        case .failure(let error):
            report = .rejected(format: stored.format, assurance: configuration.testMode ? .test : .production, error: error)
        }
        if !report.checks.isEmpty { metrics.stages(report.timings) }
        let outcomeLabel = report.verified ? "verified" : "rejected"
        let code = report.primaryError?.code
        metrics.verification(format: stored.format.rawValue, outcome: outcomeLabel, code: code, duration: ContinuousClock.now - start)
        logger.info(message, metadata: metadata.merging([
            "format": "\(stored.format.rawValue)", "outcome": "\(outcomeLabel)", "code": "\(code?.rawValue ?? "none")"]) { $1 })
        return report
    }

    /// The refusal of a verify call or a wallet's answer, logged as `message` and counted under `format` (a replayed or
    /// expired request names its own; otherwise "unknown").
    func refuse(_ error: APIError, message: Logger.Message = "wallet answer refused", requestId: String?, format: String = "unknown",
                start: ContinuousClock.Instant) -> Response {
        metrics.verification(format: format, outcome: error.outcome, code: error.code, duration: ContinuousClock.now - start)
        logger.info(message, metadata: [
            "requestId": "\(requestId.map(Self.loggable) ?? "-")", "status": "\(error.status.code)", "code": "\(error.code.rawValue)",
        ])
        return error.response
    }
}

extension APIError {
    /// 404 of the wallet-facing endpoint: the same for an unknown ID and a wrong or missing secret.
    static let unknownWalletRequest = APIError.unknown(
        "no such request for this client secret: check the requestId and send its clientSecret in X-Client-Secret "
            + "(or the request was purged after expiry)")
    /// 409 of the wallet-facing endpoint.
    static let walletReplayed = APIError.replayed(
        "this request already received the wallet's answer; ask your backend for a new request")
    /// 410 of the wallet-facing endpoint.
    static let walletExpired = APIError.expired(
        "this request expired before the wallet answered; ask your backend for a new request")
}

/// What the page posts to the wallet-facing endpoint: `JSON.stringify(credential)` of the Digital Credentials API
/// (`{"protocol", "data"}`), or `{"response": …}` as `POST /v1/verify` takes it (e.g. an app's apple-app answer).
struct WalletAnswer {
    let protocolIdentifier: String?
    /// The body as received, for a format whose verifier reads the whole DC API result (OpenID4VP).
    let text: String
    let data: JSONValue?
    let response: String?

    /// 400 `input.malformed` unless the body is a JSON object with a string `protocol` and a `data`, or a string
    /// `response`.
    init(_ bytes: some Collection<UInt8>) throws(APIError) {
        text = String(decoding: bytes, as: UTF8.self)
        // A repeated member is left to the format's verifier, which reports it on its own check.
        guard let object = try? JSONValue.parseNotingRepeat(bytes, maxNodes: 100_000).0, object.isObject else {
            throw APIError.malformed("body must be a JSON object: JSON.stringify(credential), or {\"response\": …}")
        }
        protocolIdentifier = object["protocol"]?.string
        data = object["data"]
        response = object["response"]?.string
        guard (protocolIdentifier != nil && data != nil) || (object["protocol"] == nil && response != nil) else {
            throw APIError.malformed("body must be the DigitalCredential as JSON ({\"protocol\": string, \"data\": …}) "
                + "or {\"response\": string}")
        }
    }

    /// The response text `format`'s verifier takes, or why this answer cannot be one (the page passed another
    /// protocol's answer): `envelope.unsupported` or `input.malformed`, recorded as a rejected report.
    func response(for format: VerificationReport.Format, wire: FormatWire?) -> Result<String, VerificationError> {
        guard let protocolIdentifier else {
            return response.map { .success($0) } ?? .failure(VerificationError(.inputMalformed, "the answer has no `response`"))
        }
        guard let wire else {
            return .failure(VerificationError(.envelopeUnsupported, "\(format.rawValue) is not a registered format"))
        }
        return wire.response(protocol: protocolIdentifier, data: data, credential: text, formatName: format.rawValue)
    }
}
