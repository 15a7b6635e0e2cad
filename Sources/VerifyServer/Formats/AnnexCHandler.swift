import Foundation
import Mdoc
import Verifier

/// ISO/IEC 18013-7 Annex C over the Digital Credentials API: not wired yet, so creating such a request is refused
/// with a clear `envelope.unsupported` rather than half-served.
struct UnsupportedAnnexCHandler: FormatHandler {
    var format: RequestFormat { .annexC }

    func prepare(policy: RequestPolicy, origin: String?) throws(APIError) -> PreparedRequest {
        throw APIError(.badRequest, .envelopeUnsupported, "format annex-c is not yet supported by this server; use apple-app")
    }

    func verify(response: String, request: StoredRequest, at time: Date) -> FormatVerification {
        .rejected(VerificationError(.envelopeUnsupported, "format annex-c is not yet supported by this server"))
    }
}
