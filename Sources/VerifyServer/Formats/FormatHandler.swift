import Foundation
import Mdoc
import Verifier

/// One wallet format's two halves: creating a request (secret state kept in the store, public fields returned
/// to the client) and verifying the response to a consumed request.
protocol FormatHandler: Sendable {
    var format: VerificationReport.Format { get }

    /// Builds a new request for `policy`. Throws an `APIError` for a request the format cannot serve.
    func prepare(policy: RequestPolicy, origin: String?) throws(APIError) -> PreparedRequest

    /// Verifies `response` (the client's text, as posted) against the stored request, as of `time`.
    func verify(response: String, request: StoredRequest, at time: Date) -> FormatVerification
}

struct PreparedRequest: Sendable {
    /// Kept server-side in the store.
    var state: [String: String]
    /// Added to the 201 body after `requestId`.
    var publicFields: [(String, JSONValue)]
}

/// A report from the verifier, or a rejection before the verifier could start (the response text undecodable).
enum FormatVerification: Sendable {
    case report(VerificationReport)
    case rejected(VerificationError)
}
