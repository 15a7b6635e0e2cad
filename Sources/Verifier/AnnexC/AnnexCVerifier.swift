import Foundation
import MdocTrust

/// Verifies ISO/IEC TS 18013-7 Annex C responses (`org-iso-mdoc` over the Digital Credentials API): the
/// `ResponseVerifier`, named for this format.
public typealias AnnexCVerifier = ResponseVerifier

extension ResponseVerifier {
    /// Verifies an Annex C response against `session`, as of `time`, through `AnnexCAdapter` (docs/formats.md §2).
    ///
    /// `response` is `DigitalCredential.data` as JSON (`{"response": "…"}`) or its `response` string. The revocation
    /// lists the configured source would have to fetch are noted in `lookups`.
    public func verify(response: String, session: AnnexCSession, at time: Date = Date(),
                       noting lookups: RevocationLookups? = nil) -> VerificationReport {
        verify(AnnexCAdapter(), .init(response: response, session: session), request: session.request, at: time, noting: lookups)
    }
}
