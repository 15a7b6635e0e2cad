import Foundation
import Mdoc

/// Verifies OpenID4VP responses over the Digital Credentials API (docs/formats.md §7) against the session kept
/// when the request was made. Stateless: the caller keeps each session and uses it once.
public final class OpenID4VPVerifier: Sendable {
    /// The configuration this verifier was created with.
    public let configuration: VerifierConfiguration
    let pipeline: VerificationPipeline

    /// Creates a verifier whose trust store, limits and policies come from `configuration`.
    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    /// Verifies an OpenID4VP response against `session`, as of `time`, and returns the report.
    ///
    /// `response`: what the page posted (the DC API result, its `data`, or the compact JWE).
    public func verify(response: String, session: OpenID4VPSession, at time: Date = Date()) -> VerificationReport {
        pipeline.verify(OpenID4VPAdapter(), OpenID4VPAdapter.Input(response: response, session: session), request: session.request, at: time)
    }
}
