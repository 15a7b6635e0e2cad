import CBOR
import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Tracing
import Verifier
import VerifyServerAPI

extension ServerHandlers {
    /// `POST /v1/verify`: consumes the request (first attempt, whatever the outcome), then verifies the response.
    /// 200 verified report, 422 report with errors, 404/409/410 for unknown/replayed/expired, 400/413 for the body.
    func verify(_ request: Request) async -> Response {
        let start = ContinuousClock.now
        let body: VerifyRequestBody
        do throws(APIError) {
            body = try await verifyBody(request)
        } catch {
            return refuse(error, message: "verification refused", requestId: nil, start: start)
        }
        let logID = Self.loggable(body.requestId)
        let stored: StoredRequest
        do throws(APIError) {
            stored = try await consume(body.requestId, logID: logID)
        } catch {
            return refuse(error, message: "verification refused", requestId: logID, format: await storedFormat(body.requestId, after: error),
                          start: start)
        }

        let report = await verifyAndCount(.success(PrecheckedAnswer(body.response)), of: stored, log: "verification",
                                          metadata: ["requestId": "\(logID)"], start: start)
        // Written straight into bytes: building the report's JSON tree first cost more than the HTTP handling.
        return Response.json(report.verified ? .ok : .unprocessableContent, bytes: report.jsonBytes(leading: [("requestId", stored.id)]))
    }

    /// The decoded and validated body.
    private func verifyBody(_ request: Request) async throws(APIError) -> VerifyRequestBody {
        let body = try await bodies.decode(VerifyRequestBody.self, from: request)
        do {
            try body.validate()
        } catch {
            throw APIError.malformed(error.message, code: error.code)
        }
        return body
    }

    /// Consumes the stored request `id` (whatever comes next, it cannot be used again); unknown, replayed and expired
    /// requests are refused, as is a store that fails.
    private func consume(_ id: String, logID: String) async throws(APIError) -> StoredRequest {
        let outcome = try await fromStore("consume", ["requestId": "\(logID)"]) { try await store.consume(id: id, now: clock.now()) }
        switch outcome {
        case .unknown:
            throw .unknownRequest
        case .replayed:
            throw .replayed
        case .expired:
            throw .expired
        case .consumed(let request):
            return request
        }
    }

    /// The format label of a refused consume: a replayed or expired request still names its format (read from the
    /// store, which the consume left in place); otherwise, or when the store does not say, "unknown".
    func storedFormat(_ id: String, after error: APIError) async -> String {
        guard error.code == .nonceReplayed || error.code == .nonceExpired,
              let request = try? await store.lookup(id: id) else { return "unknown" }
        return request.format.rawValue
    }

    /// The report of `answer` under the stored request's format, state and policy, in a span when tracing is on.
    func verificationReport(_ answer: PrecheckedAnswer, of stored: StoredRequest) async -> VerificationReport {
        let time = configuration.verificationTime ?? clock.now()
        let assurance: VerificationReport.Assurance = configuration.testMode ? .test : .production
        let runtime = runtimes.current
        @Sendable func verifyResponse() async -> VerificationReport {
            await runtime.verifying { lookups in
                runtime.flows[stored.format]?.verify(answer, state: stored.state, policy: stored.policy, at: time, noting: lookups)
                    ?? .rejected(format: stored.format, assurance: assurance,
                                 error: VerificationError(.envelopeUnsupported, "format \(stored.format.rawValue) is not supported by this server"))
            }
        }
        // The verification's span (its stages are child spans); attributes name the format, outcome and code only.
        // Without a bootstrapped tracer no span is made: a no-op span and its attributes cost ~5 µs a call.
        return StageTimings.tracerInstalled ? await withSpan("verification") { span in
            let report = await verifyResponse()
            span.attributes["mdoc.format"] = stored.format.rawValue
            span.attributes["mdoc.outcome"] = report.verified ? "verified" : "rejected"
            span.attributes["mdoc.error_code"] = report.primaryError?.code.rawValue ?? "none"
            return report
        } : await verifyResponse()
    }

    /// A client-supplied request ID is logged only if it looks like one of ours.
    static func loggable(_ id: String) -> String {
        id.count <= 64 && id.allSatisfy({ $0.isHexDigit || $0 == "-" }) ? id : "(invalid)"
    }
}
