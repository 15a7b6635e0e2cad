import CryptoCore
import Foundation
import MdocModel
import MdocTrust

extension FormatDescriptor {
    /// OpenID4VP 1.0 without the Digital Credentials API: a QR code or link with `request_uri`, a signed request object
    /// fetched once, the wallet's `direct_post.jwt` answer posted to `response_uri`.
    public static let openID4VPRedirect = FormatDescriptor(
        format: .openID4VPRedirect, title: "OpenID4VP 1.0 by QR code or link (request_uri, direct_post.jwt)",
        documentation: "docs/formats.md §8", checks: [.redirectResponse, .redirectState],
        codes: [.redirectStateMismatch, .redirectExpired, .redirectWalletUnsupported, .redirectRequestInvalid], wire: .byReference,
        // Every request object is signed: without a reader identity the format is not offered.
        flow: { environment, verifier in environment.readerIdentity == nil ? nil : OpenID4VPRedirectFlow(environment, verifier: verifier) })
}

/// OpenID4VP 1.0 by reference as a request flow (docs/formats.md §8): the request is made with the wallet-facing URLs
/// the server publishes for it, signed with the reader identity when the wallet fetches it, and its answer is the
/// form the wallet posts. The kept state is the `OpenID4VPRedirectSession`'s own members.
public struct OpenID4VPRedirectFlow: RequestFlow {
    /// The verifier that checks the answers.
    public let verifier: ResponseVerifier
    let reader: ReaderIdentity?
    let profile: OpenID4VPProfile

    /// The format, `openid4vp-redirect`.
    public var format: VerificationReport.Format { .openID4VPRedirect }

    /// Creates the flow from the relying party's configuration, reader identity and OpenID4VP profile.
    public init(_ environment: FlowEnvironment) {
        self.init(environment, verifier: ResponseVerifier(configuration: environment.configuration))
    }

    /// Creates the flow on a runtime's shared `verifier` (see `FormatRegistry.flows`).
    init(_ environment: FlowEnvironment, verifier: ResponseVerifier) {
        self.verifier = verifier
        reader = environment.readerIdentity
        profile = environment.openID4VPProfile
    }

    /// Throws `redirect.request_invalid`: the request publishes its wallet-facing URLs, which only
    /// `prepare(policy:context:)` is given.
    public func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest {
        throw VerificationError(.redirectRequestInvalid, "an openid4vp-redirect request publishes its request_uri and response_uri: "
                                + "make it with prepare(policy:context:) and the request's walletURLs")
    }

    /// Creates the request for `policy` with the context's wallet URLs and expiry: the kept state and the fields for
    /// the page (`authorizationRequest` for the QR code or link, `clientId`, `requestUri`).
    ///
    /// With an issuer allow-list in `policy`, each credential query carries it narrowed to the trust store as
    /// `trusted_authorities` of type `aki`. Throws `redirect.request_invalid` without wallet URLs or a reader identity
    /// (the request object is signed), and what `OpenID4VPRedirectRequest.create` throws.
    public func prepare(policy: RequestPolicy, context: RequestCreation) throws(VerificationError) -> PreparedRequest {
        guard let reader else {
            throw VerificationError(.redirectRequestInvalid, "an openid4vp-redirect request is signed: configure a reader identity "
                                    + "(server: readerKey and readerCertificates; CLI: --reader-key and --reader-cert)")
        }
        guard let urls = context.walletURLs else {
            throw VerificationError(.redirectRequestInvalid, "an openid4vp-redirect request needs its request_uri and response_uri")
        }
        let authorities = try IssuerIdentifiers.narrowed(policy, in: verifier.configuration.trustStore) ?? [:]
        let request = try OpenID4VPRedirectRequest.create(policy: policy, reader: reader, requestURI: urls.request, responseURI: urls.response,
                                                          expiresAt: context.expiresAt, profile: profile, trustedAuthorities: authorities)
        return PreparedRequest(state: try Self.state(request.session), publicFields: [
            ("authorizationRequest", .string(request.authorizationRequest())), ("clientId", .string(request.session.clientID)),
            ("requestUri", .string(request.session.requestURI)),
        ])
    }

    /// The kept state of `session` (secret: it holds the encryption key).
    public static func state(_ session: OpenID4VPRedirectSession) throws(VerificationError) -> KeptState {
        try KeptState(session)
    }

    /// The session back from kept state (or from the one `session` member of JSON text an earlier version kept).
    /// Throws `input.malformed` naming what it lacks or cannot use.
    public static func session(_ state: KeptState) throws(VerificationError) -> OpenID4VPRedirectSession {
        if let earlier = try? state.decode(EarlierState.self, format: .openID4VPRedirect) {
            return try KeptState(json: Array(earlier.session.utf8)).decode(OpenID4VPRedirectSession.self, format: .openID4VPRedirect)
        }
        return try state.decode(OpenID4VPRedirectSession.self, format: .openID4VPRedirect)
    }

    /// The kept state of an earlier version: the session as JSON text.
    private struct EarlierState: Decodable {
        let session: String
    }

    /// The request object for the kept `state`, signed with the reader identity at `time`, echoing `walletNonce`.
    ///
    /// Throws `redirect.expired` at or after the request's expiry, `redirect.request_invalid` for a state that does
    /// not decode or a missing reader identity, and what `OpenID4VPRedirectSession.requestObject` throws.
    public func requestObject(state: KeptState, walletNonce: String?, walletMetadata: String?, at time: Date) throws(VerificationError)
        -> String {
        guard let reader else {
            throw VerificationError(.redirectRequestInvalid, "an openid4vp-redirect request object is signed: configure a reader identity")
        }
        let session: OpenID4VPRedirectSession
        do { session = try Self.session(state) } catch {
            throw VerificationError(.redirectRequestInvalid, "the stored openid4vp-redirect request is unusable: \(error.message)")
        }
        guard time < session.expiresAt else {
            throw VerificationError(.redirectExpired, "the request expired at \(RFC3339.format(session.expiresAt)); ask for a new one")
        }
        return try session.requestObject(reader: reader, walletNonce: walletNonce, walletMetadata: walletMetadata, issuedAt: time)
    }

    /// Refuses, before the request is used up, a body that cannot be this request's answer, so that whoever saw only
    /// the QR code (the request ID) cannot end the transaction: not a form, a parameter given twice, none of `response`,
    /// `vp_token` or `error` (`input.malformed`); a `response` that is not a compact JWE (`jwe.malformed`) or does not
    /// open with the request's key (`jwe.decryption_failed`); a `state` (in the JWE, or the form of a plain answer or
    /// an error) that is missing or not the request's (`redirect.state_mismatch`). A kept state that does not decode is
    /// left to `verify`, which reports it. The decrypted plaintext travels in the result to `verify`, which does not
    /// decrypt again.
    public func precheck(response: String, state: KeptState) throws(VerificationError) -> PrecheckedAnswer {
        let form = try FormEncoding.parse(response, significant: OpenID4VPRedirectAdapter.parameters)
        let session = try? Self.session(state)
        if let text = form["response"] {
            let jwe: CompactJWE
            do { jwe = try CompactJWE(text) } catch { throw error.jweError }
            // A compressed payload, or a session without a key (another response mode), is left to `verify`.
            guard let session, let key = session.encryptionKey, jwe.compression == nil else { return PrecheckedAnswer(response) }
            let plaintext: [UInt8]
            do { plaintext = try jwe.decrypt(with: key) } catch { throw error.jweError }
            let payload = try? JSONValue.parseNotingRepeat(plaintext, maxNodes: OpenID4VPResponse.maxNodes).0
            // As `verify` judges it: a payload state that is not text is a wrong one, not an absent one.
            let payloadState = payload?["state"].map { $0.string ?? "" }
            try Self.checkStates([payloadState, form["state"]].compactMap { $0 }, session: session)
            return PrecheckedAnswer(response, opened: plaintext)
        } else if form["vp_token"] != nil || form["error"] != nil {
            guard let session else { return PrecheckedAnswer(response) }
            try Self.checkStates([form["state"]].compactMap { $0 }, session: session)
            return PrecheckedAnswer(response)
        } else {
            throw VerificationError(.inputMalformed, "the form has none of `response`, `vp_token` or `error`")
        }
    }

    /// At least one state given, and every one the request's.
    private static func checkStates(_ given: [String], session: OpenID4VPRedirectSession) throws(VerificationError) {
        guard !given.isEmpty, given.allSatisfy({ constantTimeEquals(Array($0.utf8), Array(session.state.utf8)) }) else {
            throw VerificationError(.redirectStateMismatch, "the answer's state is missing or is not the request's: it is not this request's answer")
        }
    }

    /// Verifies the form the wallet posted to `response_uri` against the kept `state`, as of `time`.
    public func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        do {
            return verifier.verify(directPost: response, session: try Self.session(state), request: policy, at: time, noting: lookups)
        } catch {
            return verifier.rejected(format, error)
        }
    }

    /// Verifies an answer `precheck` let through, reusing the plaintext it decrypted.
    public func verify(_ answer: PrecheckedAnswer, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        do {
            return verifier.verify(directPost: answer.response, opened: answer.opened, session: try Self.session(state), request: policy, at: time, noting: lookups)
        } catch {
            return verifier.rejected(format, error)
        }
    }
}
