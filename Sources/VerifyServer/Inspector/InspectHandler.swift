import CBOR
import CryptoCore
import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Verifier
import VerifyServerAPI

extension ServerHandlers {
    /// The inspector's CBOR tree stops after this many nodes, so a large response cannot make an unbounded answer.
    static let inspectedNodes = 20_000

    /// `POST /v1/inspect` (inspector only, test mode): verifies a pasted response without creating or consuming a
    /// request and answers `{"report", "cbor"}` — the report as `/v1/verify` gives it and the decrypted
    /// DeviceResponse as a CBOR tree, whatever the outcome. Logged like a verification: format, outcome, code.
    func inspect(_ request: Request) async -> Response {
        guard configuration.inspector else { return Response(status: .notFound) }
        let start = ContinuousClock.now
        do throws(APIError) {
            let body = try await bodies.decode(InspectRequestBody.self, from: request)
            guard let format = formats.format(named: body.format) else {
                throw APIError.malformed("format must be one of \(formats.formats.map(\.rawValue).joined(separator: ", "))")
            }
            let inspection = PipelineInspection()
            let report = try await inspectionReport(body, format: format, inspection: inspection)
            let code = report.primaryError?.code
            metrics.verification(format: format.rawValue, outcome: report.verified ? "verified" : "rejected", code: code,
                                 duration: ContinuousClock.now - start)
            logger.info("inspection", metadata: ["format": "\(format.rawValue)", "outcome": "\(report.verified ? "verified" : "rejected")",
                                                 "code": "\(code?.rawValue ?? "none")"])
            let cbor = inspection.deviceResponses.first.flatMap { try? CBORDecoder.decode($0, limits: .default) }
                .map { InspectTree.node($0, limit: Self.inspectedNodes).limited(to: Self.inspectedNodes).json } ?? .null
            return Response.json(.ok, .object([("report", report.json), ("cbor", cbor)]))
        } catch {
            logger.info("inspection refused", metadata: ["status": "\(error.status.code)", "code": "\(error.code.rawValue)"])
            return error.response
        }
    }

    /// The report for a pasted response. What is wrong with the paste itself (not hex or base64, a missing nonce,
    /// transcript or requestId) is a rejected report too, so the page shows it the same way; only an unknown
    /// `requestId` (404) or a store outage (503) is an HTTP error.
    private func inspectionReport(_ body: InspectRequestBody, format: VerificationReport.Format,
                                  inspection: PipelineInspection) async throws(APIError) -> VerificationReport {
        let runtime = runtimes.current
        let time = configuration.verificationTime ?? clock.now()
        // A format without a request flow arrives with the transcript its caller built.
        if descriptor(format)?.hasRequestFlow != true {
            return inspectDeviceResponse(body, runtime: runtime, inspection: inspection, at: time)
        }
        if body.requestId == nil, let rebuild = descriptor(format)?.pastedState {
            return inspectPasted(body, format: format, rebuild: rebuild, runtime: runtime, inspection: inspection, at: time)
        }
        guard let id = body.requestId, !id.isEmpty else {
            return rejected(format, "a \(format.rawValue) response needs the requestId of the request it answers")
        }
        let found: StoredRequest?
        do {
            found = try await store.lookup(id: id)
        } catch {
            throw APIError.storeUnavailable
        }
        guard let stored = found else { throw APIError.unknownRequest }
        guard stored.format == format,
              let flow = (try? runtime.formats.flows(runtime.environment, inspection: inspection))?.first(where: { $0.format == format })
        else {
            return rejected(format, "request \(ServerHandlers.loggable(id)) is a \(stored.format.rawValue) request")
        }
        return flow.verify(response: flowText(body.response, format: format), state: stored.state, policy: stored.policy, at: time)
    }

    /// A pasted DeviceResponse, verified against the pasted session transcript (and reader key, for deviceMac).
    private func inspectDeviceResponse(_ body: InspectRequestBody, runtime: VerifierRuntime, inspection: PipelineInspection,
                                       at time: Date) -> VerificationReport {
        let format = VerificationReport.Format.deviceResponse
        guard let bytes = BinaryText.decode(body.response) else { return rejected(format, "response is not hex or base64") }
        guard let text = body.sessionTranscript, let encoded = BinaryText.decode(text) else {
            return rejected(format, "a device-response needs its sessionTranscript (hex or base64 CBOR)")
        }
        let transcript: SessionTranscript
        do {
            transcript = try SessionTranscript(encoded: encoded)
        } catch {
            return rejected(format, error.message, code: error.code)
        }
        // The reader key checks deviceMac (ISO 18013-5 Annex D); it is used for this call only, never logged or kept.
        var readerKey: PrivateKey?
        if let pem = body.readerPrivateKey?.trimmingCharacters(in: .whitespacesAndNewlines), !pem.isEmpty {
            guard let key = try? PrivateKey(pemEncoded: pem) else {
                return rejected(format, "readerPrivateKey is not a PEM private key (SEC1 or PKCS#8): give the reader's ephemeral private key, "
                                + "or leave it empty when the response is signed (deviceSignature)")
            }
            readerKey = key
        }
        return DeviceResponseVerifier(configuration: runtime.environment.configuration).inspecting(inspection)
            .verify(deviceResponse: bytes, transcript: transcript, readerKey: readerKey, at: time)
    }

    /// A pasted response without a requestId, for a format whose kept state the paste's values rebuild (Apple: the
    /// nonce), verified through the format's flow with the pasted merchant and team IDs, else the configured ones.
    private func inspectPasted(_ body: InspectRequestBody, format: VerificationReport.Format,
                               rebuild: @Sendable ([String: String]) throws(VerificationError) -> KeptState,
                               runtime: VerifierRuntime, inspection: PipelineInspection, at time: Date) -> VerificationReport {
        var environment = runtime.environment
        if let merchantID = body.merchantId { environment.merchantID = merchantID }
        if let teamID = body.teamId { environment.teamID = teamID }
        let state: KeptState
        let flows: [any RequestFlow]
        do {
            state = try rebuild(["nonce": body.nonce].compactMapValues { $0 })
            flows = try runtime.formats.flows(environment, inspection: inspection)
        } catch {
            return rejected(format, error.message, code: error.code)
        }
        guard let flow = flows.first(where: { $0.format == format }) else { return rejected(format, "\(format.rawValue) has no request flow") }
        return flow.verify(response: flowText(body.response, format: format), state: state, policy: nil, at: time)
    }

    /// The pasted answer as the format's flow takes it: a binary answer's flow takes base64, and the inspector also
    /// takes hex.
    private func flowText(_ pasted: String, format: VerificationReport.Format) -> String {
        guard descriptor(format)?.wire.binary == true else { return pasted }
        return BinaryText.decode(pasted).map(Base64URL.encode) ?? pasted
    }

    /// A rejected report for what is wrong with the paste itself.
    private func rejected(_ format: VerificationReport.Format, _ message: String, code: ErrorCode = .inputMalformed) -> VerificationReport {
        .rejected(format: format, assurance: configuration.testMode ? .test : .production, error: VerificationError(code, message))
    }

    /// The inspector's page, script and style sheet (embedded in the binary), under a Content-Security-Policy that
    /// allows nothing but themselves, the endpoint and `data:` images (the portrait).
    func inspectorFile(_ endpoint: Endpoint) -> Response {
        guard configuration.inspector else { return Response(status: .notFound) }
        let (bytes, type): ([UInt8], String) = switch endpoint {
        case .inspectorScript: (PackageResources.inspector_js, "text/javascript; charset=utf-8")
        case .inspectorStyle: (PackageResources.inspector_css, "text/css; charset=utf-8")
        default: (PackageResources.inspector_html, "text/html; charset=utf-8")
        }
        return Response.embeddedFile(bytes, type: type, policy: Self.inspectorPolicy)
    }

    static let inspectorPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
