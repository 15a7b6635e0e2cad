import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Verifier
import VerifyServerAPI

/// The demo's request body: a format, optionally the documents (the demo asks for a few mDL elements otherwise), and
/// for a format the wallet answers by reference whether the wallet is on this device (it then returns the user to the
/// demo page with a `response_code`).
struct DemoCreateBody: Decodable {
    var format: String
    var documents: [RequestPolicy.DocumentRequest]?
    var sameDevice: Bool?
}

extension ServerHandlers {
    /// Whether the demo routes answer: test mode with `demoOrigin` set.
    var demoEnabled: Bool { configuration.testMode && configuration.demoOrigin != nil }

    /// The mDL elements the demo asks for when the page names none.
    static let demoDocuments = [RequestPolicy.DocumentRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        "org.iso.18013.5.1": ["family_name": false, "given_name": false, "age_over_21": false],
    ])]

    /// The demo (test mode with `demoOrigin`, 404 otherwise): its page and script, two routes that stand in for the
    /// relying party's backend, so the page holds no API key: create a transaction for `demoOrigin` (a web format, or
    /// one the wallet answers by reference), and read a demo transaction's status and report (they see no transaction
    /// made with a key); and the QR code of a text (an authorization request) as SVG.
    func demo(_ endpoint: Endpoint, request: Request, id: String?, client: String) async -> Response {
        guard demoEnabled, let origin = configuration.demoOrigin else { return Response(status: .notFound) }
        switch endpoint {
        case .demoPage: return Response.embeddedFile(PackageResources.demo_html, type: "text/html; charset=utf-8", policy: Self.demoPolicy)
        case .demoScript: return Response.embeddedFile(PackageResources.demo_js, type: "text/javascript; charset=utf-8", policy: Self.demoPolicy)
        case .demoStatus:
            return await status(of: id, owner: TransactionOwner.demo, responseCode: request.uri.queryParameters["response_code"].map(String.init))
        case .demoQRCode: return demoQRCode(request.uri.queryParameters["text"].map(String.init))
        default: break
        }
        var retryAfter: Int?
        do throws(APIError) {
            let body = try await bodies.decode(DemoCreateBody.self, from: request)
            guard let format = formats.format(named: body.format), demoFormats.contains(format) else {
                throw APIError.malformed("the demo creates transactions of \(demoFormats.map(\.rawValue).joined(separator: ", "))")
            }
            let (_, policy) = try validated(CreateRequestBody(format: body.format, documents: body.documents ?? Self.demoDocuments, origin: origin))
            let redirect = body.sameDevice == true ? try redirectURI(origin + "/demo", for: format, origins: [origin]) : nil
            return try await transaction(format: format, policy: policy, origin: descriptor(format)?.bindsOrigin == true ? origin : nil,
                                         owner: TransactionOwner.demo, counted: .address(client),
                                         serverState: ServerKeptState(redirectURI: redirect), retryAfter: &retryAfter)
        } catch {
            return error.response(retryAfter: retryAfter)
        }
    }

    /// The formats the demo page offers: the web ones (the browser's Digital Credentials API) and those the wallet
    /// answers by reference (a QR code or link).
    var demoFormats: [VerificationReport.Format] {
        formats.descriptors.filter { $0.bindsOrigin || $0.wire.byReference }.map(\.format)
    }

    /// `GET /v1/demo/qr?text=…`: the QR code of `text` as SVG; 400 for no text or one over `QRCode.maxBytes`.
    private func demoQRCode(_ text: String?) -> Response {
        guard let text, let svg = QRCode.svg(text) else {
            return APIError.malformed("text must hold 1 to \(QRCode.maxBytes) bytes to encode").response
        }
        return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    static let demoPolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
