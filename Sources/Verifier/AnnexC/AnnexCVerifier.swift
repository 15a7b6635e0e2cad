import Foundation
import Mdoc

/// Verifies ISO/IEC TS 18013-7 Annex C responses (`org-iso-mdoc` over the Digital Credentials API) through the
/// shared pipeline with `AnnexCAdapter` (docs/formats.md §2).
public final class AnnexCVerifier: Sendable {
    /// The configuration this verifier was created with.
    public let configuration: VerifierConfiguration
    let pipeline: VerificationPipeline

    /// Creates a verifier whose trust store, limits and policies come from `configuration`.
    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    /// Verifies an Annex C response against `session`, as of `time`, and returns the report.
    ///
    /// `response` is `DigitalCredential.data` as JSON (`{"response": "…"}`) or its `response` string.
    public func verify(response: String, session: AnnexCSession, at time: Date = Date()) -> VerificationReport {
        pipeline.verify(AnnexCAdapter(), .init(response: response, session: session), request: session.request, at: time)
    }
}
