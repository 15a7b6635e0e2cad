import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Verifier
import VerifyServerAPI

/// The demo's request body: a format, and optionally the documents (the demo asks for a few mDL elements otherwise).
struct DemoCreateBody: Decodable {
    var format: String
    var documents: [RequestPolicy.DocumentRequest]?
}

extension ServerHandlers {
    /// Whether the demo routes answer: test mode with `demoOrigin` set.
    var demoEnabled: Bool { configuration.testMode && configuration.demoOrigin != nil }

    /// The mDL elements the demo asks for when the page names none.
    static let demoDocuments = [RequestPolicy.DocumentRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        "org.iso.18013.5.1": ["family_name": false, "given_name": false, "age_over_21": false],
    ])]

    /// The demo (test mode with `demoOrigin`, 404 otherwise): its page and script, and two routes that stand in for
    /// the relying party's backend, so the page holds no API key: create a transaction for `demoOrigin` (annex-c or
    /// openid4vp only), and read a demo transaction's status and report. They see no transaction made with a key.
    func demo(_ endpoint: Endpoint, request: Request, id: String?, client: String) async -> Response {
        guard demoEnabled, let origin = configuration.demoOrigin else { return Response(status: .notFound) }
        switch endpoint {
        case .demoPage: return demoFile(PackageResources.demo_html, type: "text/html; charset=utf-8")
        case .demoScript: return demoFile(PackageResources.demo_js, type: "text/javascript; charset=utf-8")
        case .demoStatus:
            return await status(of: id, owner: TransactionOwner.demo, responseCode: request.uri.queryParameters["response_code"].map(String.init))
        default: break
        }
        var retryAfter: Int?
        do throws(APIError) {
            let body = try await bodies.decode(DemoCreateBody.self, from: request)
            guard let format = VerificationReport.Format(rawValue: body.format), format.descriptor?.bindsOrigin == true else {
                let web = VerificationReport.Format.allCases.filter { $0.descriptor?.bindsOrigin == true }.map(\.rawValue)
                throw APIError.malformed("the demo creates transactions of the web formats: \(web.joined(separator: ", "))")
            }
            let (_, policy) = try Self.validated(CreateRequestBody(format: body.format, documents: body.documents ?? Self.demoDocuments, origin: origin))
            return try await transaction(format: format, policy: policy, origin: origin, owner: TransactionOwner.demo,
                                         counted: .address(client), retryAfter: &retryAfter)
        } catch {
            var response = error.response
            if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            return response
        }
    }

    private func demoFile(_ bytes: [UInt8], type: String) -> Response {
        var headers: HTTPFields = [.contentType: type, .contentSecurityPolicy: Self.demoPolicy, .xContentTypeOptions: "nosniff",
                                   .cacheControl: "no-store"]
        if let referrer = HTTPFields.Element.Name("Referrer-Policy") { headers[referrer] = "no-referrer" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static let demoPolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
