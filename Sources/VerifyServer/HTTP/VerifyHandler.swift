import Foundation
import Hummingbird
import Mdoc
import Verifier

extension ServerHandlers {
    /// `POST /v1/verify`: consumes the request (first attempt, whatever the outcome), then verifies the response.
    /// 200 verified report, 422 report with errors, 404/409/410 for unknown/replayed/expired, 400/413 for the body.
    func verify(_ request: Request) async -> Response {
        let start = ContinuousClock.now
        let body: VerifyRequestBody
        do throws(APIError) {
            body = try await bodies.decode(VerifyRequestBody.self, from: request)
            guard !body.requestId.isEmpty, body.requestId.utf8.count <= 128 else {
                throw APIError(.badRequest, .inputMalformed, "requestId must be 1 to 128 characters")
            }
        } catch {
            return refuse(error, format: "unknown", requestId: nil, start: start)
        }
        let logID = Self.loggable(body.requestId)

        let outcome: ConsumeOutcome
        do {
            outcome = try await store.consume(id: body.requestId, now: clock.now())
        } catch {
            logger.error("request store consume failed", metadata: ["requestId": "\(logID)", "error": "\(error)"])
            return refuse(.storeUnavailable(), format: "unknown", requestId: logID, start: start)
        }
        let stored: StoredRequest
        switch outcome {
        case .unknown:
            return refuse(APIError(.notFound, .nonceUnknown, "no such request (never created, or purged after expiry)"),
                          format: "unknown", requestId: logID, start: start)
        case .replayed:
            return refuse(APIError(.conflict, .nonceReplayed, "this request was already used by an earlier verify call"),
                          format: "unknown", requestId: logID, start: start)
        case .expired:
            return refuse(APIError(.gone, .nonceExpired, "this request expired before its first verify call"),
                          format: "unknown", requestId: logID, start: start)
        case .consumed(let request):
            stored = request
        }

        if let hook = hooks.beforeVerification { await hook() }
        let time = configuration.verificationTime ?? clock.now()
        let verification = formats[stored.format]?.verify(response: body.response, request: stored, at: time)
            ?? .rejected(VerificationError(.envelopeUnsupported, "format \(stored.format.rawValue) is not supported by this server"))

        let reportJSON: JSONValue
        let verified: Bool
        let code: ErrorCode?
        switch verification {
        case .report(let report):
            metrics.stages(report.timings)
            reportJSON = report.json
            verified = report.verified
            code = report.primaryError?.code
        case .rejected(let error):
            reportJSON = Self.rejectionReport(format: stored.format, testMode: configuration.testMode, error: error)
            verified = false
            code = error.code
        }
        let outcomeLabel = verified ? "verified" : "rejected"
        metrics.verification(format: stored.format.rawValue, outcome: outcomeLabel, code: code, duration: ContinuousClock.now - start)
        logger.info("verification", metadata: [
            "requestId": "\(logID)", "format": "\(stored.format.rawValue)", "outcome": "\(outcomeLabel)",
            "code": "\(code?.rawValue ?? "none")",
        ])
        guard case .object(let pairs) = reportJSON else { return Response.json(.internalServerError, reportJSON) }
        return Response.json(verified ? .ok : .unprocessableContent, .object([("requestId", .string(stored.id))] + pairs))
    }

    private func refuse(_ error: APIError, format: String, requestId: String?, start: ContinuousClock.Instant) -> Response {
        let outcome: String
        switch error.status {
        case .contentTooLarge: outcome = "too_large"
        case .badRequest: outcome = "malformed"
        case .notFound: outcome = "unknown"
        case .conflict: outcome = "replayed"
        case .gone: outcome = "expired"
        default: outcome = "unavailable"
        }
        metrics.verification(format: format, outcome: outcome, code: error.code, duration: ContinuousClock.now - start)
        logger.info("verification refused", metadata: [
            "requestId": "\(requestId ?? "-")", "status": "\(error.status.code)", "code": "\(error.code.rawValue)",
        ])
        return error.response
    }

    /// The report shape for a response that never reached the verifier.
    static func rejectionReport(format: RequestFormat, testMode: Bool, error: VerificationError) -> JSONValue {
        .object([
            ("verified", .bool(false)),
            ("format", .string(format.rawValue)),
            ("assurance", .string(testMode ? "test" : "production")),
            ("errors", .array([.object([("code", .string(error.code.rawValue)), ("message", .string(error.message))])])),
            ("checks", .array([])),
            ("documents", .array([])),
        ])
    }

    /// A client-supplied request ID is logged only if it looks like one of ours.
    static func loggable(_ id: String) -> String {
        id.count <= 64 && id.allSatisfy({ $0.isHexDigit || $0 == "-" }) ? id : "(invalid)"
    }
}
