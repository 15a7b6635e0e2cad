import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// A format whose relying party first creates a request (a nonce, keys, a transcript it keeps) and later
/// verifies the wallet's answer to it. The server's routes and the compliance kit read formats only through
/// this protocol and `FormatRegistry`, so a new format is its adapter, its flow and one registry line.
public protocol RequestFlow: Sendable {
    /// The format this flow requests and verifies.
    var format: VerificationReport.Format { get }

    /// Creates a request for `policy`: the state the relying party keeps (secret: never sent to the client, never
    /// logged) and the fields the page or app hands to the wallet. `origin` is the calling web page's, for the web
    /// formats. Throws a coded error for a request the format cannot serve.
    func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest

    /// Verifies the wallet's answer as the client posted it (text), against the kept state, as of `time`.
    ///
    /// Every failure, an unusable kept state included, is in the returned report. A nil `policy` skips the
    /// request-policy check.
    ///
    /// The revocation checks note in `lookups` the lists the configured source would have to fetch first (see
    /// `RevocationFetcher.resolving(_:)`); nil when nobody fetches.
    func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                noting lookups: RevocationLookups?) -> VerificationReport

    /// Creates a request for `policy` in `context`: what `prepare(policy:origin:)` does, and for a format whose
    /// request travels by reference (`FormatWire.byReference`) with the wallet-facing URLs and expiry it publishes.
    func prepare(policy: RequestPolicy, context: RequestCreation) throws(VerificationError) -> PreparedRequest

    /// The request object a wallet fetches for the kept `state`, signed now (`FormatWire.byReference` formats; every
    /// other format throws `envelope.unsupported`). `walletNonce` and `walletMetadata` are what the wallet POSTed.
    func requestObject(state: KeptState, walletNonce: String?, walletMetadata: String?, at time: Date) throws(VerificationError)
        -> String

    /// Checks an answer against the kept `state` before the request is consumed, so that input that can never verify
    /// (a body that is not the format's at all, or not made for this request) uses nothing up; the full checks run in
    /// `verify(_:state:policy:at:noting:)` with what this returns, so work done here (a decryption) is not done twice.
    /// Every format accepts anything here unless it says otherwise.
    func precheck(response: String, state: KeptState) throws(VerificationError) -> PrecheckedAnswer

    /// Verifies an answer `precheck` let through, against the same kept `state`: `verify(response:…)` reusing what
    /// the precheck already opened.
    func verify(_ answer: PrecheckedAnswer, state: KeptState, policy: RequestPolicy?, at time: Date,
                noting lookups: RevocationLookups?) -> VerificationReport
}

extension RequestFlow {
    /// `prepare(policy:origin:)` with the context's origin.
    public func prepare(policy: RequestPolicy, context: RequestCreation) throws(VerificationError) -> PreparedRequest {
        try prepare(policy: policy, origin: context.origin)
    }

    /// Accepts any answer: the format's checks all run in `verify`.
    public func precheck(response: String, state: KeptState) throws(VerificationError) -> PrecheckedAnswer {
        PrecheckedAnswer(response)
    }

    /// Verifies the answer's text: the precheck opened nothing.
    public func verify(_ answer: PrecheckedAnswer, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        verify(response: answer.response, state: state, policy: policy, at: time, noting: lookups)
    }

    /// Throws `envelope.unsupported`: the format's request is not fetched by reference.
    public func requestObject(state: KeptState, walletNonce: String?, walletMetadata: String?, at time: Date) throws(VerificationError)
        -> String {
        throw VerificationError(.envelopeUnsupported, "a \(format.rawValue) request has no request object to fetch")
    }

    /// Verifies the wallet's answer against the kept state, as of `time`, noting no revocation lookups.
    public func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date) -> VerificationReport {
        verify(response: response, state: state, policy: policy, at: time, noting: nil)
    }
}

/// A wallet's answer as posted, with what `RequestFlow.precheck` already opened of it (the plaintext of a JWE it
/// decrypted with the request's key), so that verifying it does not decrypt it again. Secret while it lives: it is
/// never stored or logged.
public struct PrecheckedAnswer: Sendable {
    /// The answer's text as the client posted it.
    public let response: String
    /// The plaintext `precheck` decrypted from `response` with the kept state's key; nil when it opened nothing.
    package let opened: [UInt8]?

    /// An answer nothing was opened of.
    public init(_ response: String) {
        self.init(response, opened: nil)
    }

    package init(_ response: String, opened: [UInt8]?) {
        self.response = response
        self.opened = opened
    }
}

/// What a request is made for besides its policy.
public struct RequestCreation: Sendable {
    /// The calling web page's origin, for the formats whose transcript binds it.
    public var origin: String?
    /// Where the wallet fetches the request object and posts its answer, for a format whose request travels by
    /// reference; nil for the others.
    public var walletURLs: WalletURLs?
    /// When the request expires.
    public var expiresAt: Date

    /// Creates a context.
    public init(origin: String? = nil, walletURLs: WalletURLs? = nil, expiresAt: Date) {
        self.origin = origin
        self.walletURLs = walletURLs
        self.expiresAt = expiresAt
    }
}

/// The wallet-facing URLs of one request fetched by reference.
public struct WalletURLs: Sendable, Equatable {
    /// `request_uri`: where the wallet fetches the request object.
    public var request: String
    /// `response_uri`: where the wallet posts its answer.
    public var response: String

    /// Creates the pair.
    public init(request: String, response: String) {
        self.request = request
        self.response = response
    }
}

/// A new request: what the relying party keeps and what the client receives.
public struct PreparedRequest: Sendable {
    /// Kept server-side until the answer arrives; secret.
    public var state: KeptState
    /// Handed to the client, in order (e.g. `nonce` for Apple, `data` for Annex C).
    public var publicFields: [(String, JSONValue)]

    /// Creates a prepared request from the kept `state` and the client's `publicFields`.
    public init(state: KeptState, publicFields: [(String, JSONValue)]) {
        self.state = state
        self.publicFields = publicFields
    }
}

/// What a relying party configured once, shared by every format's flow.
public struct FlowEnvironment: Sendable {
    /// The verifier configuration every flow's verifier uses.
    public var configuration: VerifierConfiguration
    /// Apple in-app decryption keys (P-256), matched to responses by pkRHash.
    public var recipientKeys: [PrivateKey]
    /// The Apple in-app merchant identifier, bound into the session transcript.
    public var merchantID: String
    /// The Apple in-app team identifier, bound into the session transcript.
    public var teamID: String
    /// Signs web requests (Annex C ReaderAuth) when set.
    public var readerIdentity: ReaderIdentity?
    /// Web requests (Annex C) list the trust store's issuer identifiers for each docType in the ItemsRequest's
    /// `requestInfo`, so the wallet offers only documents the verifier can anchor (`IssuerIdentifiers`).
    public var issuerIdentifiersInRequests: Bool
    /// OpenID4VP requests ask for an encrypted (`dc_api.jwt`, the default) or a plain (`dc_api`) response.
    public var openID4VPResponseMode: OpenID4VPSession.ResponseMode
    /// The profile OpenID4VP requests are made and checked under (`haip`: docs/formats.md §7.7).
    public var openID4VPProfile: OpenID4VPProfile

    /// Creates an environment; every setting but `configuration` defaults to empty or off, and OpenID4VP
    /// requests ask for encrypted (`dc_api.jwt`) responses.
    public init(configuration: VerifierConfiguration, recipientKeys: [PrivateKey] = [], merchantID: String = "", teamID: String = "",
                readerIdentity: ReaderIdentity? = nil, issuerIdentifiersInRequests: Bool = false,
                openID4VPResponseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT, openID4VPProfile: OpenID4VPProfile = .default) {
        self.configuration = configuration
        self.recipientKeys = recipientKeys
        self.merchantID = merchantID
        self.teamID = teamID
        self.readerIdentity = readerIdentity
        self.issuerIdentifiersInRequests = issuerIdentifiersInRequests
        self.openID4VPResponseMode = openID4VPResponseMode
        self.openID4VPProfile = openID4VPProfile
    }
}
