import Foundation
import MdocTrust

/// Verifies OpenID4VP responses over the Digital Credentials API against the session kept when the request was made:
/// the `ResponseVerifier`, named for this format. Stateless: the caller keeps each session and uses it once.
public typealias OpenID4VPVerifier = ResponseVerifier

extension ResponseVerifier {
    /// Verifies an OpenID4VP response against `session`, as of `time`, through `OpenID4VPAdapter` (docs/formats.md §7).
    ///
    /// `response`: what the page posted (the DC API result, its `data`, or the compact JWE). The revocation lists the
    /// configured source would have to fetch are noted in `lookups`.
    public func verify(response: String, session: OpenID4VPSession, at time: Date = Date(),
                       noting lookups: RevocationLookups? = nil) -> VerificationReport {
        verify(OpenID4VPAdapter(), OpenID4VPAdapter.Input(response: response, session: session), request: session.request, at: time,
               noting: lookups)
    }
}
