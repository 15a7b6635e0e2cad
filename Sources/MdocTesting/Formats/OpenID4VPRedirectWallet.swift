import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// A redirect-flow request as the kit's wallet reads it (docs/formats.md §8): from the authorization request's
/// `client_id` and the request object fetched from `request_uri`, whose signature, `typ`, client identifier and
/// `wallet_nonce` it checks as a wallet must (OpenID4VP 1.0 §5.9.3, §5.10.1); or from a session a test holds.
public struct OpenID4VPRedirectWalletRequest: Sendable {
    /// The `client_id`, with its prefix.
    public let clientID: String
    /// Where the answer is posted; bound into the transcript.
    public let responseURI: String
    /// The request's `nonce`.
    public let nonce: String
    /// The request's `state`, echoed in the answer.
    public let state: String
    /// The response mode asked for.
    public let responseMode: OpenID4VPRedirectSession.ResponseMode
    /// The verifier's encryption key (`direct_post.jwt`).
    public let jwk: EncryptionJWK?
    /// Every credential query of the request, in order.
    public let queries: [OpenID4VPRequest.CredentialQuery]

    /// Reads the request object `jws` the wallet fetched for an authorization request whose `client_id` is
    /// `clientID`, having sent `walletNonce` (nil: a GET).
    ///
    /// Throws `SimulationError.invalidOption` naming what a wallet refuses: not a compact JWS, `typ` other than
    /// `oauth-authz-req+jwt`, a signature that the `x5c` leaf's key does not verify, a `client_id` other than
    /// `clientID` or than the leaf certificate gives under its prefix, a `wallet_nonce` not echoed.
    public init(requestObject jws: String, clientID expected: String, walletNonce: String?) throws {
        let payload = try RequestObjectCheck.verifiedPayload(jws, clientID: expected)
        if let walletNonce, payload["wallet_nonce"]?.string != walletNonce {
            throw RequestObjectCheck.invalid("the request object does not echo the wallet_nonce the wallet sent")
        }
        guard let nonce = payload["nonce"]?.string, let state = payload["state"]?.string,
              let responseURI = payload["response_uri"]?.string,
              let mode = payload["response_mode"]?.string.flatMap(OpenID4VPRedirectSession.ResponseMode.init(rawValue:)),
              let queries = try OpenID4VPRequest.queries(payload, invalid: RequestObjectCheck.invalid)
        else { throw RequestObjectCheck.invalid("nonce, state, response_uri, response_mode or dcql_query missing") }
        let jwk = mode == .directPostJWT ? try OpenID4VPRequest.encryptionJWK(payload, invalid: RequestObjectCheck.invalid) : nil
        self.init(clientID: expected, responseURI: responseURI, nonce: nonce, state: state, responseMode: mode, jwk: jwk, queries: queries)
    }

    /// The request a verifier's `session` describes (a test that holds the session, or the CLI's kept state).
    public init(session: OpenID4VPRedirectSession) {
        let queries = session.queryIDs.map { OpenID4VPRequest.CredentialQuery(id: $0, docType: session.queryDocTypes[$0] ?? DocType.mDL) }
        self.init(clientID: session.clientID, responseURI: session.responseURI, nonce: session.nonce, state: session.state,
                  responseMode: session.responseMode, jwk: session.jwk, queries: queries)
    }

    /// A request from its values, for a test that changes one of them (another `nonce`, `response_uri` or `state`).
    public init(clientID: String, responseURI: String, nonce: String, state: String, responseMode: OpenID4VPRedirectSession.ResponseMode,
                jwk: EncryptionJWK?, queries: [OpenID4VPRequest.CredentialQuery]) {
        self.clientID = clientID
        self.responseURI = responseURI
        self.nonce = nonce
        self.state = state
        self.responseMode = responseMode
        self.jwk = jwk
        self.queries = queries
    }

    /// The redirect transcript (`OpenID4VPHandover`) the device signs over.
    public var transcript: SessionTranscript {
        .openID4VP(clientID: clientID, nonce: nonce, jwkThumbprint: responseMode == .directPostJWT ? jwk?.thumbprint : nil,
                   responseURI: responseURI)
    }

    /// The form body the wallet posts to `response_uri`: `response=<JWE>` sealed to `recipient` (the request's key
    /// unless a test names another) with `vp_token` and `state` inside (`direct_post.jwt`), or `vp_token` and `state`
    /// as form parameters (`direct_post`). `state` nil leaves it out; the DeviceResponses are taken as given.
    public func answer(_ presentations: [OpenID4VPRequest.Presentation], state: String?, recipient: PublicKey? = nil,
                       jwe: OpenID4VPRequest.JWEOptions = OpenID4VPRequest.JWEOptions(), corruptCiphertext: Bool = false) throws -> String {
        let token = JSONValue.object(presentations.map { presentation in
            (presentation.queryID, .array(presentation.deviceResponses.map { .string(Base64URL.encode($0)) }))
        })
        switch responseMode {
        case .directPost:
            var form = "vp_token=" + FormEncoding.encode(token.serialized())
            if let state { form += "&state=" + FormEncoding.encode(state) }
            return form
        case .directPostJWT:
            guard let jwk else { throw SimulationError.invalidOption("openid4vp-redirect: no encryption key to answer to") }
            var members: [(String, JSONValue)] = [("vp_token", token)]
            if let state { members.append(("state", .string(state))) }
            let sealed = try OpenID4VPResponseBuilder.seal(Array(JSONValue.object(members).serialized().utf8), to: try recipient ?? jwk.publicKey(),
                                                           kid: jwk.kid, corruptCiphertext: corruptCiphertext, options: jwe)
            return "response=" + FormEncoding.encode(sealed)
        }
    }

    /// The wallet's error answer (OpenID4VP 1.0 §8.5), e.g. `access_denied`, with the request's `state`.
    public func errorAnswer(_ code: String, description: String? = nil) -> String {
        var form = "error=" + FormEncoding.encode(code) + "&state=" + FormEncoding.encode(state)
        if let description { form += "&error_description=" + FormEncoding.encode(description) }
        return form
    }
}

/// The parts of an authorization request (`openid4vp://?client_id=…&request_uri=…&request_uri_method=post`) a wallet
/// reads, from the URL a QR code or link carries.
public struct OpenID4VPAuthorizationRequest: Sendable, Equatable {
    /// The `client_id`.
    public let clientID: String
    /// Where the request object is fetched.
    public let requestURI: String
    /// `post` when the wallet may POST `wallet_metadata` and `wallet_nonce`; `get` (or absent) otherwise.
    public let requestURIMethod: String?

    /// Reads `url`; throws `SimulationError.invalidOption` without `client_id` or `request_uri`, or with a parameter
    /// given twice.
    public init(url: String) throws {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else {
            throw SimulationError.invalidOption("the authorization request has no query")
        }
        let parameters: [String: String]
        do { parameters = try FormEncoding.parse(String(query)) } catch { throw SimulationError.invalidOption(error.message) }
        guard let clientID = parameters["client_id"], let requestURI = parameters["request_uri"] else {
            throw SimulationError.invalidOption("the authorization request has no client_id or request_uri")
        }
        self.clientID = clientID
        self.requestURI = requestURI
        requestURIMethod = parameters["request_uri_method"]
    }
}

/// A wallet's checks on a request object: the JWS, its signer and the client identifier.
enum RequestObjectCheck {
    static func invalid(_ why: String) -> SimulationError { .invalidOption("openid4vp-redirect request object: \(why)") }

    /// The payload of `jws` once its `typ`, signature (by `x5c[0]`) and `client_id` (equal to `clientID`, and what the
    /// leaf certificate gives under its prefix) are checked.
    static func verifiedPayload(_ jws: String, clientID: String) throws -> JSONValue {
        // A request object is a JWT: the compact serialization only (RFC 9101 §4), not the JSON one JWS also reads.
        guard jws.utf8.first != UInt8(ascii: "{") else { throw invalid("not a compact JWS (a request object is a JWT)") }
        let parsed: JWS
        let leaf: Certificate
        do {
            parsed = try JWS(Array(jws.utf8), accepting: JWSAlgorithm.ecdsa)
            leaf = try parsed.certificates(limit: 8)[0]
            try parsed.verify(by: leaf)
        } catch {
            throw invalid(error.message)
        }
        guard let payload = JSONValue.read(parsed.payload), payload.isObject else { throw invalid("the JWS payload is not a JSON object") }
        guard parsed.header["typ"]?.string == "oauth-authz-req+jwt" else { throw invalid("typ is not oauth-authz-req+jwt") }
        guard payload["client_id"]?.string == clientID else {
            throw invalid("client_id is not the authorization request's")
        }
        guard clientID == expectedClientID(prefix: clientID, leaf: leaf) else {
            throw invalid("client_id does not match the x5c leaf certificate under its prefix")
        }
        return payload
    }

    /// What `leaf` gives as the client identifier under `clientID`'s prefix (OpenID4VP 1.0 §5.9.3); nil for another
    /// prefix, or `x509_san_dns` whose value is none of the leaf's dNSNames.
    static func expectedClientID(prefix clientID: String, leaf: Certificate) -> String? {
        if clientID.hasPrefix("x509_hash:") { return "x509_hash:" + Base64URL.encode(Digest.hash(.sha256, leaf.derEncoded)) }
        guard clientID.hasPrefix("x509_san_dns:") else { return nil }
        let value = String(clientID.dropFirst("x509_san_dns:".count))
        for name in leaf.subjectAlternativeNames {
            if case .dns(let dns) = name, dns == value { return clientID }
        }
        return nil
    }
}

/// OpenID4VP without the DC API: the wallet posts a form to `response_uri`.
struct OpenID4VPRedirectWallet: WalletSide {
    let request: OpenID4VPRedirectWalletRequest
    /// The verifier's session, when the kit made the request (it holds the encryption key).
    let session: OpenID4VPRedirectSession?
    /// The request values the device signs over, when an attack changes one; the request's otherwise.
    var signedOver: OpenID4VPRedirectWalletRequest?
    /// The `state` the answer carries, when an attack changes it; the request's otherwise.
    var answerState: String?

    init(request: OpenID4VPRedirectWalletRequest, session: OpenID4VPRedirectSession?) {
        self.request = request
        self.session = session
    }

    var format: ResponseFormat { .openID4VPRedirect }
    var transcript: SessionTranscript { (signedOver ?? request).transcript }
    var responseURI: String? { request.responseURI }

    /// The flow's own attacks (`Variant`): a transcript over another value of the request, or another `state`.
    func variant(_ name: String) -> (any WalletSide)? {
        guard let variant = Variant(rawValue: name) else { return nil }
        var varied = self
        let r = request
        switch variant {
        case .otherResponseURI, .otherNonce, .otherClientID:
            let clientID = variant != .otherClientID ? r.clientID
                : r.clientID.hasPrefix("x509_hash:") ? "x509_san_dns:verifier.example" : "x509_hash:" + Base64URL.encode(Digest.hash(.sha256, Array(r.clientID.utf8)))
            varied.signedOver = OpenID4VPRedirectWalletRequest(
                clientID: clientID, responseURI: variant == .otherResponseURI ? "https://another-verifier.example/direct_post" : r.responseURI,
                nonce: variant == .otherNonce ? Base64URL.encode(Digest.hash(.sha256, Array(r.nonce.utf8))) : r.nonce, state: r.state,
                responseMode: r.responseMode, jwk: r.jwk, queries: r.queries)
        case .otherState:
            varied.answerState = Base64URL.encode(Digest.hash(.sha256, Array(r.state.utf8)))
        }
        return varied
    }

    /// The flow's attacks a conformance case can name.
    enum Variant: String, CaseIterable {
        /// The device signs over another `response_uri` (an answer relayed from another verifier's request).
        case otherResponseURI = "other-response-uri"
        /// The device signs over another `nonce`.
        case otherNonce = "other-nonce"
        /// The device signs over the `client_id` under the other prefix (`x509_hash` ↔ `x509_san_dns`).
        case otherClientID = "other-client-id"
        /// The answer carries another transaction's `state`.
        case otherState = "other-state"
    }
    var otherTranscript: SessionTranscript {
        .openID4VP(clientID: request.clientID, nonce: request.nonce, jwkThumbprint: request.jwk?.thumbprint,
                   responseURI: "https://another-verifier.example/response")
    }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        var recipient = try request.jwk?.publicKey()
        if let key = recipient { recipient = try self.recipient(key, faults: faults, pki: pki) }
        let presentation = OpenID4VPRequest.Presentation(queryID: request.queries.first?.id ?? "", deviceResponses: [deviceResponse])
        let text = try request.answer([presentation], state: answerState ?? request.state, recipient: recipient,
                                      corruptCiphertext: faults.contains(.corruptedCiphertext))
        return (Array(text.utf8), text)
    }
}

extension ResponseTarget {
    /// OpenID4VP without the DC API: the form the wallet posts to `response_uri`.
    public static func openID4VPRedirect(_ request: OpenID4VPRedirectWalletRequest) -> ResponseTarget {
        ResponseTarget(OpenID4VPRedirectWallet(request: request, session: nil))
    }

    /// OpenID4VP without the DC API, for a request whose verifier session the caller holds (a seeded case).
    public static func openID4VPRedirect(session: OpenID4VPRedirectSession) -> ResponseTarget {
        ResponseTarget(OpenID4VPRedirectWallet(request: OpenID4VPRedirectWalletRequest(session: session), session: session))
    }

    /// The verifier's session, when this target was made from one.
    public var openID4VPRedirectSession: OpenID4VPRedirectSession? { (wallet as? OpenID4VPRedirectWallet)?.session }
}

extension KitFormat {
    /// OpenID4VP by reference: a kit-made request (signed by the kit's reader) answered with a `direct_post.jwt` form;
    /// JWE faults end in `jwe.decryption_failed`. A request a verifier published is answered as a wallet does: its
    /// request object fetched from `request_uri` and checked, the form posted to its `response_uri`.
    static let openID4VPRedirect = KitFormat(
        format: .openID4VPRedirect, transportFaults: [.encryptedToOtherKey, .corruptedCiphertext],
        transportCodes: [.encryptedToOtherKey: .jweDecryptionFailed, .corruptedCiphertext: .jweDecryptionFailed], refusesDeviceMac: false,
        corpus: CorpusShape(responseFile: "response.txt", privateKeyFile: "encryption-private-key.pem",
                            privateKey: { $0.target.openID4VPRedirectSession?.encryptionKey }, verifyOptions: CorpusShape.sessionOptions,
                            requestDocTypeCode: ErrorCode.vpTokenDocTypeMismatch, otherTranscriptName: "Annex C's",
                            extraAttacks: addRedirectAttacks),
        answering: answerOpenID4VPRedirect
    ) { seed in
        let reader = try TestReaderPKI.shared().identity
        let base = "https://verifier.example/v1/wallet/kit-\(seed.seed)"
        let policy = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false]])])
        let created = try OpenID4VPRedirectRequest.create(policy: policy, reader: reader, requestURI: base + "/request",
                                                          responseURI: base + "/direct_post", expiresAt: OpenID4VPRedirectWallet.seededExpiry)
        return SeededRequest(target: .openID4VPRedirect(session: created.session), state: try OpenID4VPRedirectFlow.state(created.session),
                             environment: FlowEnvironment(configuration: seed.configuration, readerIdentity: reader))
    }
}

extension KitFormat {
    /// The flow's own attacks: the device signs over another value of the request (each binds the answer to this
    /// verifier and this request), or the answer carries another transaction's `state`.
    static func addRedirectAttacks(to list: inout ConformanceCatalog.CaseList) {
        let handover = "OpenID4VP 1.0 B.2.6.1 (OpenID4VPHandover, invocation via redirects)"
        let signed: [(OpenID4VPRedirectWallet.Variant, String, String)] = [
            (.otherResponseURI, "transcript-other-response-uri", "another verifier's response_uri (an answer relayed from its request)"),
            (.otherNonce, "transcript-other-nonce", "another nonce than the request's"),
            (.otherClientID, "transcript-other-client-id", "the client_id under the other prefix (x509_hash and x509_san_dns)"),
        ]
        for (variant, name, what) in signed {
            list.add(.attack, name, clause: handover, summary: "the device signs over the redirect handover with \(what)",
                     expected: .rejected(.deviceSignatureInvalid), recipe: Recipe(walletVariant: variant.rawValue))
        }
        list.add(.attack, "state-other-transaction", clause: "OpenID4VP 1.0 §8.2 (state in the response), §14.4 (direct_post)",
                 summary: "a correct answer that carries another transaction's state: it does not belong to this request",
                 expected: .rejected(.redirectStateMismatch), recipe: Recipe(walletVariant: OpenID4VPRedirectWallet.Variant.otherState.rawValue))
    }

    /// The wallet for a published authorization request (`authorizationRequest`, the QR code's URL): fetches the
    /// request object with a fresh `wallet_nonce` and checks it as a wallet must before answering it.
    static func answerOpenID4VPRedirect(_ published: PublishedRequest) throws -> ResponseTarget {
        let authorization = try OpenID4VPAuthorizationRequest(url: try published.text("authorizationRequest"))
        guard let fetch = published.fetch else {
            throw SimulationError.invalidOption("this target cannot fetch an openid4vp-redirect request object")
        }
        let walletNonce = Base64URL.encode(SecureRandom.bytes(16))
        let object = try fetch(authorization.requestURI, walletNonce)
        return .openID4VPRedirect(try OpenID4VPRedirectWalletRequest(requestObject: object, clientID: authorization.clientID,
                                                                     walletNonce: walletNonce))
    }
}

extension OpenID4VPRedirectWallet {
    /// A seeded request's expiry: far enough for every case time (2100-01-01).
    static let seededExpiry = Date(timeIntervalSince1970: 4_102_444_800)
}

extension SimulatedResponse {
    /// The form the wallet posts to `response_uri` (openid4vp-redirect only).
    public var openID4VPRedirectForm: String? { format == .openID4VPRedirect ? textAnswer : nil }
}
