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
    enum StateKey {
        static let privateKey = "privateKey"
        static let kid = "kid"
        static let x = "x"
        static let y = "y"
        static let origin = "origin"
        static let nonce = "nonce"
        static let responseMode = "responseMode"
        static let queryIDs = "queryIDs"
        /// A JSON object, query id → `doctype_value`; absent in state kept before it was.
        static let queryDocTypes = "queryDocTypes"
        /// `haip`, for a request made under the HAIP profile; absent: the default profile.
        static let profile = "profile"
    }

    /// The verifier that checks the answers.
    public let verifier: OpenID4VPVerifier
    let reader: ReaderIdentity?
    let responseMode: OpenID4VPSession.ResponseMode
    let profile: OpenID4VPProfile

    /// The OpenID4VP format, `openid4vp`.
    public var format: VerificationReport.Format { .openID4VP }

    /// Creates the flow from the relying party's configuration, reader identity and OpenID4VP response mode.
    public init(_ environment: FlowEnvironment) {
        self.init(environment, verifier: OpenID4VPVerifier(configuration: environment.configuration))
    }

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
        return PreparedRequest(state: Self.state(request.session),
                               publicFields: [("protocol", .string(request.protocolIdentifier)), ("data", request.data)])
    }

    /// The kept state of a session (secret: it holds the encryption key).
    public static func state(_ session: OpenID4VPSession) -> [String: String] {
        var state = [
            StateKey.origin: session.origin, StateKey.nonce: session.nonce, StateKey.responseMode: session.responseMode.rawValue,
            StateKey.queryIDs: session.queryIDs.joined(separator: ","),
        ]
        if session.profile != .default { state[StateKey.profile] = session.profile.rawValue }
        if !session.queryDocTypes.isEmpty {
            state[StateKey.queryDocTypes] = JSONValue.object(session.queryDocTypes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
                .serialized()
        }
        if let key = session.encryptionKey, let jwk = session.jwk {
            state[StateKey.privateKey] = key.pkcs8PEM()
            state[StateKey.kid] = jwk.kid
            state[StateKey.x] = jwk.x
            state[StateKey.y] = jwk.y
        }
        return state
    }

    /// The session back from kept state; nil when it is incomplete or names an unknown profile. State kept without the
    /// queries' `doctype_value`s takes them from `request` (see `OpenID4VPSession.init`).
    public static func session(_ state: [String: String], request: RequestPolicy?) -> OpenID4VPSession? {
        guard let origin = state[StateKey.origin], let nonce = state[StateKey.nonce],
              let mode = state[StateKey.responseMode].flatMap(OpenID4VPSession.ResponseMode.init(rawValue:)),
              let profile = state[StateKey.profile].map(OpenID4VPProfile.init(rawValue:)) ?? Optional(OpenID4VPProfile.default)
        else { return nil }
        var key: PrivateKey?
        var jwk: EncryptionJWK?
        if mode == .dcAPIJWT {
            guard let pem = state[StateKey.privateKey], let kid = state[StateKey.kid], let x = state[StateKey.x], let y = state[StateKey.y],
                  let loaded = try? PrivateKey(pemEncoded: pem)
            else { return nil }
            key = loaded
            jwk = EncryptionJWK(kid: kid, x: x, y: y)
        }
        let ids = (state[StateKey.queryIDs] ?? "").split(separator: ",").map(String.init)
        var docTypes: [String: String]?
        if let text = state[StateKey.queryDocTypes] {
            guard let members = JSONValue.object(text, maxNodes: 10_000)?.members else { return nil }
            var object: [String: String] = [:]
            for (id, value) in members {
                guard let docType = value.string else { return nil }
                object[id] = docType
            }
            docTypes = object
        }
        return OpenID4VPSession(origin: origin, nonce: nonce, responseMode: mode, encryptionKey: key, jwk: jwk, queryIDs: ids,
                                queryDocTypes: docTypes, request: request, profile: profile)
    }

    /// Verifies the DC API result the page posted against the kept `state`, as of `time`.
    ///
    /// An incomplete `state` gives a rejected report; a nil `policy` skips the request-policy check.
    public func verify(response: String, state: [String: String], policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        guard let session = Self.session(state, request: policy) else {
            return verifier.rejected(format, VerificationError(.inputMalformed, "stored openid4vp request is incomplete"))
        }
        return verifier.verify(response: response, session: session, at: time, noting: lookups)
    }
}
