import Foundation
import Hummingbird
import Mdoc
import Verifier
import VerifyServerAPI

extension ServerHandlers {
    /// `POST /v1/requests`: stores the policy, the format's secret state and an expiry; answers 201.
    func createRequest(_ request: Request) async -> Response {
        do throws(APIError) {
            let body = try await bodies.decode(CreateRequestBody.self, from: request)
            let requestable = VerificationReport.Format.allCases.filter(\.hasRequestFlow)
            guard let format = VerificationReport.Format(rawValue: body.format), format.hasRequestFlow else {
                throw APIError.malformed(
                               "format must be one of \(requestable.map(\.rawValue).joined(separator: ", "))")
            }
            let policy: RequestPolicy
            do {
                policy = try body.policy()
            } catch {
                throw APIError.malformed(error.message, code: error.code)
            }
            guard let handler = runtimes.current.flows[format] else {
                throw APIError.malformed("format \(format.rawValue) is not supported by this server", code: .envelopeUnsupported)
            }
            let prepared: PreparedRequest
            do {
                prepared = try handler.prepare(policy: policy, origin: body.origin)
            } catch {
                throw APIError.malformed(error.message, code: error.code)
            }
            let now = clock.now()
            let stored = StoredRequest(id: StoredRequest.newID(), format: format, policy: policy, state: prepared.state,
                                       createdAt: now, expiresAt: now.addingTimeInterval(configuration.requestTTL))
            do {
                try await store.insert(stored)
            } catch {
                logger.error("request store insert failed", metadata: ["error": "\(error)"])
                throw APIError.storeUnavailable
            }
            metrics.requestCreated(format: format)
            logger.info("request created", metadata: [
                "requestId": "\(stored.id)", "format": "\(format.rawValue)", "expiresAt": "\(RFC3339.format(stored.expiresAt))",
            ])
            return Response.json(.created, .object(
                [("requestId", .string(stored.id))] + prepared.publicFields + [("expiresAt", .string(RFC3339.format(stored.expiresAt)))]))
        } catch {
            logger.info("request refused", metadata: ["status": "\(error.status.code)", "code": "\(error.code.rawValue)"])
            return error.response
        }
    }
}
