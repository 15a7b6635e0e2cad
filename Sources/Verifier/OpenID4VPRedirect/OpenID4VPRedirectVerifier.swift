import Foundation
import MdocModel
import MdocTrust

extension ResponseVerifier {
    /// Verifies the wallet's POST to `response_uri` against `session`, as of `time`, through `OpenID4VPRedirectAdapter`
    /// (docs/formats.md §8.2).
    ///
    /// `body`: the form as posted (`application/x-www-form-urlencoded`: `response=<JWE>`, or `vp_token` and `state`,
    /// or `error`). An answer at or after `session.expiresAt` is refused (`redirect.expired`) before it is opened. A nil
    /// `request` skips the request-policy check. The revocation lists the configured source would have to fetch are
    /// noted in `lookups`.
    public func verify(directPost body: String, session: OpenID4VPRedirectSession, request: RequestPolicy?, at time: Date = Date(),
                       noting lookups: RevocationLookups? = nil) -> VerificationReport {
        verify(directPost: body, opened: nil, session: session, request: request, at: time, noting: lookups)
    }

    /// As `verify(directPost:…)`, with `opened` the plaintext of the body's JWE already decrypted with the session's
    /// key (`OpenID4VPRedirectFlow.precheck`): every JWE check but the decryption itself still runs.
    package func verify(directPost body: String, opened: [UInt8]?, session: OpenID4VPRedirectSession, request: RequestPolicy?, at time: Date,
                        noting lookups: RevocationLookups?) -> VerificationReport {
        guard time < session.expiresAt else {
            let error = VerificationError(.redirectExpired, "the request expired at \(RFC3339.format(session.expiresAt)); make a new request")
            return .rejected(format: .openID4VPRedirect, assurance: assurance, error: error, check: .redirectResponse)
        }
        return verify(OpenID4VPRedirectAdapter(), OpenID4VPRedirectAdapter.Input(body: body, opened: opened, session: session, request: request),
                      request: request, at: time, noting: lookups)
    }
}
