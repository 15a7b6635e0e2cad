import CryptoCore
import Foundation
import MdocModel

/// What the verifier keeps for one redirect-flow request (docs/formats.md §8) from its creation until the wallet's
/// answer: what the request object says (client identifier, `response_uri`, `nonce`, `state`, the DCQL query, the
/// encryption key) and what the answer is checked against. Secret (it holds the encryption key): keep it server-side,
/// serve its request object once and use it once.
///
/// `Codable`: it is kept as one JSON document (`keptState`), the encryption key as PKCS #8 PEM.
public struct OpenID4VPRedirectSession: Sendable, Equatable, Codable {
    /// How the wallet posts its answer to `response_uri`.
    public enum ResponseMode: String, Sendable, CaseIterable, Codable {
        /// Encrypted: the form's `response` is a compact JWE to the request's key (HAIP's choice; the default).
        case directPostJWT = "direct_post.jwt"
        /// Plain: the form's `vp_token` and `state` (refused under the HAIP profile).
        case directPost = "direct_post"
    }

    /// The `client_id`, with its prefix (`x509_hash:` or `x509_san_dns:`).
    public let clientID: String
    /// Where the wallet fetches the request object.
    public let requestURI: String
    /// Where the wallet posts its answer; bound into the session transcript.
    public let responseURI: String
    /// The `nonce` request parameter.
    public let nonce: String
    /// The `state` request parameter; the answer must carry it.
    public let state: String
    /// The response mode the request asks for; an answer in the other mode is refused.
    public let responseMode: ResponseMode
    /// The response encryption private key (`direct_post.jwt` only).
    public let encryptionKey: PrivateKey?
    /// The public JWK of `encryptionKey`, as published in `client_metadata.jwks`.
    public let jwk: EncryptionJWK?
    /// The `enc` values offered in `encrypted_response_enc_values_supported`.
    public let encryptionValues: [String]
    /// The DCQL credential query ids; each must be answered, and no other.
    public let queryIDs: [String]
    /// Each credential query's `doctype_value`, by query id.
    public let queryDocTypes: [String: String]
    /// The `dcql_query` as the request object carries it (JSON text).
    public let dcqlQuery: String
    /// The profile the request was made under; `haip` adds the HAIP checks on the answer.
    public let profile: OpenID4VPProfile
    /// When the request object stops being served and the answer refused (the request object's `exp`).
    public let expiresAt: Date

    /// The session transcript (OpenID4VP 1.0 Appendix B.2.6.1, `OpenID4VPHandover`): `client_id`, `nonce`, the
    /// thumbprint of the encryption key for `direct_post.jwt` (null for `direct_post`) and `response_uri`.
    public var transcript: SessionTranscript {
        .openID4VP(clientID: clientID, nonce: nonce, jwkThumbprint: responseMode == .directPostJWT ? jwk?.thumbprint : nil,
                   responseURI: responseURI)
    }

    /// Creates a session from its values (the request builder makes them; tests and the kit rebuild one).
    public init(clientID: String, requestURI: String, responseURI: String, nonce: String, state: String, responseMode: ResponseMode,
                encryptionKey: PrivateKey?, jwk: EncryptionJWK?, encryptionValues: [String] = OpenID4VPSession.defaultEncryptionValues,
                queryIDs: [String], queryDocTypes: [String: String], dcqlQuery: String, profile: OpenID4VPProfile, expiresAt: Date) {
        self.clientID = clientID
        self.requestURI = requestURI
        self.responseURI = responseURI
        self.nonce = nonce
        self.state = state
        self.responseMode = responseMode
        self.encryptionKey = encryptionKey
        self.jwk = jwk
        self.encryptionValues = encryptionValues
        self.queryIDs = queryIDs
        self.queryDocTypes = queryDocTypes
        self.dcqlQuery = dcqlQuery
        self.profile = profile
        self.expiresAt = expiresAt
    }

    /// The session as the OpenID4VP answer checks read it (the DC API flow's JWE and `vp_token` checks are shared).
    func answerSession(request: RequestPolicy?) -> OpenID4VPSession {
        OpenID4VPSession(origin: "", nonce: nonce, responseMode: responseMode == .directPostJWT ? .dcAPIJWT : .dcAPI, encryptionKey: encryptionKey,
                         jwk: jwk, encryptionValues: encryptionValues, queryIDs: queryIDs, queryDocTypes: queryDocTypes, request: request,
                         profile: profile)
    }

    // MARK: - Kept as JSON

    private enum Key: String, CodingKey {
        case clientID, requestURI, responseURI, nonce, state, responseMode, encryptionKey, kid, x, y, encryptionValues, queryIDs
        case queryDocTypes, dcqlQuery, profile, expiresAt
    }

    /// Decodes a kept session; a key that does not load, or a `direct_post.jwt` session without one, is a decoding
    /// error.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: Key.self)
        let mode = try values.decode(ResponseMode.self, forKey: .responseMode)
        var key: PrivateKey?
        var jwk: EncryptionJWK?
        if mode == .directPostJWT {
            key = try PrivateKey(pemEncoded: try values.decode(String.self, forKey: .encryptionKey))
            jwk = EncryptionJWK(kid: try values.decode(String.self, forKey: .kid), x: try values.decode(String.self, forKey: .x),
                                y: try values.decode(String.self, forKey: .y))
        }
        guard let profile = OpenID4VPProfile(rawValue: try values.decode(String.self, forKey: .profile)) else {
            throw DecodingError.dataCorruptedError(forKey: .profile, in: values, debugDescription: "unknown OpenID4VP profile")
        }
        self.init(clientID: try values.decode(String.self, forKey: .clientID), requestURI: try values.decode(String.self, forKey: .requestURI),
                  responseURI: try values.decode(String.self, forKey: .responseURI), nonce: try values.decode(String.self, forKey: .nonce),
                  state: try values.decode(String.self, forKey: .state), responseMode: mode, encryptionKey: key, jwk: jwk,
                  encryptionValues: try values.decode([String].self, forKey: .encryptionValues),
                  queryIDs: try values.decode([String].self, forKey: .queryIDs),
                  queryDocTypes: try values.decode([String: String].self, forKey: .queryDocTypes),
                  dcqlQuery: try values.decode(String.self, forKey: .dcqlQuery), profile: profile,
                  expiresAt: try values.decode(Date.self, forKey: .expiresAt))
    }

    /// Encodes the session, its encryption key as PKCS #8 PEM.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: Key.self)
        try values.encode(clientID, forKey: .clientID)
        try values.encode(requestURI, forKey: .requestURI)
        try values.encode(responseURI, forKey: .responseURI)
        try values.encode(nonce, forKey: .nonce)
        try values.encode(state, forKey: .state)
        try values.encode(responseMode, forKey: .responseMode)
        if let encryptionKey, let jwk {
            try values.encode(encryptionKey.pkcs8PEM(), forKey: .encryptionKey)
            try values.encode(jwk.kid, forKey: .kid)
            try values.encode(jwk.x, forKey: .x)
            try values.encode(jwk.y, forKey: .y)
        }
        try values.encode(encryptionValues, forKey: .encryptionValues)
        try values.encode(queryIDs, forKey: .queryIDs)
        try values.encode(queryDocTypes, forKey: .queryDocTypes)
        try values.encode(dcqlQuery, forKey: .dcqlQuery)
        try values.encode(profile.rawValue, forKey: .profile)
        try values.encode(expiresAt, forKey: .expiresAt)
    }

    /// Two sessions are equal when every kept value is (the private keys compared through their public JWK).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.clientID == rhs.clientID && lhs.requestURI == rhs.requestURI && lhs.responseURI == rhs.responseURI && lhs.nonce == rhs.nonce
            && lhs.state == rhs.state && lhs.responseMode == rhs.responseMode && lhs.jwk == rhs.jwk
            && (lhs.encryptionKey == nil) == (rhs.encryptionKey == nil) && lhs.encryptionValues == rhs.encryptionValues
            && lhs.queryIDs == rhs.queryIDs && lhs.queryDocTypes == rhs.queryDocTypes && lhs.dcqlQuery == rhs.dcqlQuery
            && lhs.profile == rhs.profile && lhs.expiresAt == rhs.expiresAt
    }
}
