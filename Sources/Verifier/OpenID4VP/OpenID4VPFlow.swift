import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// OpenID4VP 1.0 over the Digital Credentials API as a request flow (docs/formats.md §7): a fresh nonce and, for
/// `dc_api.jwt`, a fresh encryption key per request; signed with the reader identity when one is configured. The
/// kept state is the encryption key, its JWK coordinates and kid, the origin, the nonce, the response mode, the
/// credential query ids, each query's `doctype_value` and the profile (`haip`); the answer is the DC API result the
/// page posts.
public struct OpenID4VPFlow: RequestFlow {

    /// The verifier that checks the answers.
    public let verifier: OpenID4VPVerifier
    let reader: ReaderIdentity?
    let responseMode: OpenID4VPSession.ResponseMode
    let profile: OpenID4VPProfile

    /// The OpenID4VP format, `openid4vp`.
    public var format: VerificationReport.Format { .openID4VP }

    /// Creates the flow on a runtime's shared `verifier` (see `FormatRegistry.flows`).
    init(_ environment: FlowEnvironment, verifier: ResponseVerifier) {
        self.verifier = verifier
        reader = environment.readerIdentity
        responseMode = environment.openID4VPResponseMode
        profile = environment.openID4VPProfile
    }

    /// Creates an OpenID4VP request for `policy` from the page at `origin`: the kept state and the `protocol` and
    /// `data` fields for the page.
    ///
    /// With an issuer allow-list in `policy`, each credential query carries it narrowed to the trust store as
    /// `trusted_authorities` of type `aki`.
    ///
    /// Throws `input.malformed` when `origin` is missing or not a serialized web origin, the policy names no element,
    /// the allow-list names an issuer the trust store cannot anchor or leaves a docType without one, or the request
    /// cannot be signed with the reader identity.
    public func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest {
        let origin = try WebOrigin.required(origin, format: format)
        let authorities = try IssuerIdentifiers.narrowed(policy, in: verifier.configuration.trustStore) ?? [:]
        let request = try OpenID4VPWebRequest.create(origin: origin, request: policy, responseMode: responseMode, reader: reader,
                                                     trustedAuthorities: authorities, profile: profile)
        return PreparedRequest(state: try Self.state(request.session),
                               publicFields: [("protocol", .string(request.protocolIdentifier)), ("data", request.data)])
    }

    /// The kept state of a session (secret: it holds the encryption key).
    public static func state(_ session: OpenID4VPSession) throws(VerificationError) -> KeptState {
        try KeptState(OpenID4VPKeptState(session))
    }

    /// The session back from kept state, with `request` as its policy. State kept without the queries'
    /// `doctype_value`s takes them from `request` (see `OpenID4VPSession.init`).
    ///
    /// Throws `input.malformed` naming what the state lacks or cannot use.
    public static func session(_ state: KeptState, request: RequestPolicy?) throws(VerificationError) -> OpenID4VPSession {
        try state.decode(OpenID4VPKeptState.self, format: .openID4VP).session(request: request)
    }

    /// Verifies the DC API result the page posted against the kept `state`, as of `time`.
    ///
    /// An incomplete `state` gives a rejected report; a nil `policy` skips the request-policy check.
    public func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        do {
            return verifier.verify(response: response, session: try Self.session(state, request: policy), at: time, noting: lookups)
        } catch {
            return verifier.rejected(format, error)
        }
    }
}
