import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// An OpenID4VP request as the simulated wallet answers it: origin, nonce, response mode, the verifier's
/// encryption JWK (`dc_api.jwt`) and the credential queries. Built from a seed (the kit keeps the private key,
/// so `session` verifies the answer), or read from the `data` a server handed to the page.
public struct OpenID4VPRequest: Sendable {
    /// One DCQL credential query: its id and `meta.doctype_value`.
    public struct CredentialQuery: Sendable, Equatable {
        /// The credential query id, the `vp_token` key that answers it.
        public let id: String
        /// The docType the query asks for.
        public let docType: String

        /// Creates a credential query.
        public init(id: String, docType: String) {
            self.id = id
            self.docType = docType
        }
    }

    /// One `vp_token` member: a credential query id and its presentations (base64url-encoded in order).
    public struct Presentation: Sendable {
        /// The `vp_token` key.
        public let queryID: String
        /// The DeviceResponses presented for it.
        public let deviceResponses: [[UInt8]]

        /// Creates a `vp_token` member; `deviceResponses` may be empty or hold several, as a test needs.
        public init(queryID: String, deviceResponses: [[UInt8]]) {
            self.queryID = queryID
            self.deviceResponses = deviceResponses
        }
    }

    /// The origin of the page that made the request.
    public let origin: String
    /// The request nonce (for a seeded request, base64url of 32 seeded bytes).
    public let nonce: String
    /// The response mode: `dc_api.jwt` (encrypted answer) or `dc_api` (plain answer).
    public let responseMode: OpenID4VPSession.ResponseMode
    /// The DC API protocol identifier the answer names (`openid4vp-v1-unsigned` for a seeded request).
    public let protocolIdentifier: String
    /// The verifier's encryption key for `dc_api.jwt`; nil with `dc_api`.
    public let jwk: EncryptionJWK?
    /// The DCQL credential query id the kit's single-document answer uses: the first query's.
    public let queryID: String
    /// Every credential query of the request, in order.
    public let queries: [CredentialQuery]
    /// The encryption key's private half, when the kit made the request.
    public let encryptionKey: PrivateKey?
    /// The profile `session` checks the answer under (a seeded request; `default` for one read from `data`).
    public let profile: OpenID4VPProfile

    /// How the wallet writes its JWE header, for tests of the verifier's checks on it: `alg` and `enc` as written
    /// (sealed with A256GCM for `A256GCM`, else with A128GCM), and whether `kid` is echoed.
    public struct JWEOptions: Sendable {
        /// The `alg` written in the header; the key agreement is ECDH-ES whatever it says.
        public var algorithm: String
        /// The `enc` written in the header.
        public var encryption: String
        /// Whether the header carries the request key's `kid`.
        public var includesKeyID: Bool

        /// `ECDH-ES`, `A128GCM` and the `kid` echoed, unless told otherwise.
        public init(algorithm: String = "ECDH-ES", encryption: String = "A128GCM", includesKeyID: Bool = true) {
            self.algorithm = algorithm
            self.encryption = encryption
            self.includesKeyID = includesKeyID
        }
    }

    /// A request whose key and nonce come from `seed`, with `queries` (nil: one query `queryID` for the mDL), checked
    /// under `profile`.
    public init(seed: UInt64, origin: String = "https://verifier.example", responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT,
                queryID: String = "org_iso_18013_5_1_mDL", queries: [CredentialQuery]? = nil, profile: OpenID4VPProfile = .default) throws {
        let material = SeedMaterial(seed)
        self.profile = profile
        self.origin = origin
        nonce = Base64URL.encode(material.bytes("openid4vp/nonce", count: 32))
        self.responseMode = responseMode
        protocolIdentifier = "openid4vp-v1-unsigned"
        let queries = queries ?? [CredentialQuery(id: queryID, docType: DocType.mDL)]
        guard let first = queries.first else { throw SimulationError.invalidOption("openid4vp request: no credential query") }
        self.queries = queries
        self.queryID = first.id
        if responseMode == .dcAPIJWT {
            let key = try material.key("openid4vp/encryption", curve: .p256)
            encryptionKey = key
            jwk = try EncryptionJWK(publicKey: key.publicKey, kid: "kit-\(seed)")
        } else {
            encryptionKey = nil
            jwk = nil
        }
    }

    /// What a wallet reads from the DC API request `{protocol, data}`: the parameters, or for a signed request the
    /// request object's payload (the kit does not check the signature: the verifier under test made it).
    public init(protocolIdentifier: String, data: String, origin: String) throws {
        func invalid(_ why: String) -> SimulationError { .invalidOption("openid4vp request: \(why)") }
        guard var parameters = JSONValue.object(data, maxNodes: 100_000) else { throw invalid("data is not a JSON object") }
        if let jws = parameters["request"]?.string {
            let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count == 3, let payload = Base64URL.decodeStrict(String(segments[1])),
                  let object = JSONValue.read(payload), object.isObject
            else { throw invalid("request is not a compact JWS with a JSON payload") }
            parameters = object
        }
        guard let nonce = parameters["nonce"]?.string,
              let mode = parameters["response_mode"]?.string.flatMap(OpenID4VPSession.ResponseMode.init(rawValue:)),
              let queries = try Self.queries(parameters, invalid: invalid)
        else { throw invalid("nonce, response_mode or dcql_query missing") }
        guard let first = queries.first else { throw invalid("dcql_query has no credential query") }
        self.origin = origin
        self.nonce = nonce
        profile = .default
        responseMode = mode
        self.protocolIdentifier = protocolIdentifier
        self.queries = queries
        queryID = first.id
        encryptionKey = nil
        jwk = mode == .dcAPIJWT ? try Self.encryptionJWK(parameters, invalid: invalid) : nil
    }

    /// The `dcql_query`'s credential queries of request parameters as a wallet reads them; nil without a
    /// `dcql_query.credentials` array; throws `invalid(why)` for a query without id or `meta.doctype_value`.
    static func queries(_ parameters: JSONValue, invalid: (String) -> SimulationError) throws -> [CredentialQuery]? {
        guard let credentials = parameters["dcql_query"]?["credentials"]?.array else { return nil }
        return try credentials.map { credential in
            guard let id = credential["id"]?.string, let docType = credential["meta"]?["doctype_value"]?.string
            else { throw invalid("a credential query has no id or meta.doctype_value") }
            return CredentialQuery(id: id, docType: docType)
        }
    }

    /// The first key of `client_metadata.jwks` of request parameters, the one a wallet encrypts to.
    static func encryptionJWK(_ parameters: JSONValue, invalid: (String) -> SimulationError) throws -> EncryptionJWK {
        guard let key = parameters["client_metadata"]?["jwks"]?["keys"]?.array?.first, let x = key["x"]?.string, let y = key["y"]?.string,
              let kid = key["kid"]?.string
        else { throw invalid("client_metadata.jwks has no P-256 key with kid") }
        return EncryptionJWK(kid: kid, x: x, y: y)
    }

    /// The OpenID4VP 1.0 DC API transcript of this request.
    public var transcript: SessionTranscript {
        .openID4VPDCAPI(origin: origin, nonce: nonce, jwkThumbprint: responseMode == .dcAPIJWT ? jwk?.thumbprint : nil)
    }

    /// What a verifier keeps for this request (only for requests the kit made: it holds the key), without a request
    /// policy.
    public var session: OpenID4VPSession { session(request: nil) }

    /// What a verifier keeps for this request, checked against `request` (only for requests the kit made).
    public func session(request: RequestPolicy?) -> OpenID4VPSession {
        OpenID4VPSession(origin: origin, nonce: nonce, responseMode: responseMode, encryptionKey: encryptionKey, jwk: jwk,
                         queryIDs: queries.map(\.id),
                         queryDocTypes: Dictionary(queries.map { ($0.id, $0.docType) }, uniquingKeysWith: { first, _ in first }),
                         request: request, profile: profile)
    }

    /// The wallet's DC API result `{protocol, data}` with `presentations` as the `vp_token`'s members, in order (a
    /// query id may repeat, or name no query of the request), sealed to the request's key for `dc_api.jwt`. The
    /// DeviceResponses are taken as given: build them for `transcript` (e.g. `SimulatedResponse.deviceResponse` of
    /// a response simulated for `.openID4VP(self)`).
    ///
    /// Throws `SimulationError.invalidOption` for `dc_api.jwt` without the verifier's key; rethrows sealing errors.
    public func answer(_ presentations: [Presentation], jwe: JWEOptions = JWEOptions()) throws -> String {
        try OpenID4VPResponseBuilder.answer(presentations, request: self, recipient: try jwk?.publicKey(), corruptCiphertext: false, jwe: jwe)
    }

    /// The wallet's DC API result with `vpToken` as the `vp_token` as given (e.g. a bare string per query, the
    /// pre-1.0 shape), sealed to the request's key for `dc_api.jwt`.
    public func answer(vpToken: JSONValue, jwe: JWEOptions = JWEOptions()) throws -> String {
        try OpenID4VPResponseBuilder.answer(vpToken: vpToken, request: self, recipient: try jwk?.publicKey(), corruptCiphertext: false, jwe: jwe)
    }
}

/// The wallet's answer: `{"protocol", "data"}` with `data.vp_token` (`dc_api`) or `data.response`, a compact JWE
/// (ECDH-ES with a fresh ephemeral key, Concat KDF, A128GCM, `kid` echoed, unless `JWEOptions` say otherwise)
/// (`dc_api.jwt`).
enum OpenID4VPResponseBuilder {
    static func answer(deviceResponse: [UInt8], request: OpenID4VPRequest, recipient: PublicKey?, corruptCiphertext: Bool) throws -> String {
        try answer([OpenID4VPRequest.Presentation(queryID: request.queryID, deviceResponses: [deviceResponse])], request: request,
                   recipient: recipient, corruptCiphertext: corruptCiphertext)
    }

    static func answer(_ presentations: [OpenID4VPRequest.Presentation], request: OpenID4VPRequest, recipient: PublicKey?,
                       corruptCiphertext: Bool, jwe: OpenID4VPRequest.JWEOptions = OpenID4VPRequest.JWEOptions()) throws -> String {
        try answer(vpToken: .object(presentations.map { presentation in
            (presentation.queryID, .array(presentation.deviceResponses.map { .string(Base64URL.encode($0)) }))
        }), request: request, recipient: recipient, corruptCiphertext: corruptCiphertext, jwe: jwe)
    }

    static func answer(vpToken: JSONValue, request: OpenID4VPRequest, recipient: PublicKey?, corruptCiphertext: Bool,
                       jwe: OpenID4VPRequest.JWEOptions) throws -> String {
        let payload = JSONValue.object([("vp_token", vpToken)])
        let data: JSONValue
        switch request.responseMode {
        case .dcAPI:
            data = payload
        case .dcAPIJWT:
            guard let jwk = request.jwk, let recipient else { throw SimulationError.invalidOption("openid4vp: no encryption key to answer to") }
            data = .object([("response", .string(try seal(Array(payload.serialized().utf8), to: recipient, kid: jwk.kid,
                                                          corruptCiphertext: corruptCiphertext, options: jwe)))])
        }
        return JSONValue.object([("protocol", .string(request.protocolIdentifier)), ("data", data)]).serialized()
    }

    static func seal(_ plaintext: [UInt8], to recipient: PublicKey, kid: String, corruptCiphertext: Bool,
                     options: OpenID4VPRequest.JWEOptions = OpenID4VPRequest.JWEOptions()) throws -> String {
        let jwe = try CompactJWE.seal(plaintext, to: recipient, algorithm: options.algorithm, encryption: options.encryption,
                                      keyID: options.includesKeyID ? kid : nil)
        guard corruptCiphertext else { return jwe }
        var segments = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var ciphertext = Base64URL.decodeStrict(segments[3]) ?? []
        if !ciphertext.isEmpty { ciphertext[0] ^= 0x01 }
        segments[3] = Base64URL.encode(ciphertext)
        return segments.joined(separator: ".")
    }
}
