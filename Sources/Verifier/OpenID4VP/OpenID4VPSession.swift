import CryptoCore
import MdocModel

/// What the server keeps for one OpenID4VP request until its response arrives (docs/formats.md §7.5): the origin
/// and nonce the transcript binds, the response mode asked for, the encryption key and the `enc` values offered,
/// and the credential queries (ids and `doctype_value`s). Keep it server-side and use it once.
public struct OpenID4VPSession: Sendable {
    /// The response mode a request asks for: encrypted or plain.
    public enum ResponseMode: String, Sendable, CaseIterable {
        /// Encrypted: `data.response` is a compact JWE to our key (HAIP's choice; the default).
        case dcAPIJWT = "dc_api.jwt"
        /// Plain: `data.vp_token`.
        case dcAPI = "dc_api"
    }

    /// The handover the transcript is built with: OpenID4VP 1.0 (`openid4vp-v1-*`), or the draft-24 form for
    /// requests made with the legacy `openid4vp` protocol identifier.
    public enum Handover: String, Sendable, CaseIterable {
        /// OpenID4VP 1.0.
        case v1 = "1.0"
        /// OpenID4VP draft 24, for the legacy `openid4vp` protocol identifier.
        case draft24 = "draft-24"
    }

    /// The serialized origin of the calling page, from the server's records.
    public let origin: String
    /// The `nonce` request parameter as sent.
    public let nonce: String
    /// The response mode the request asked for; an answer in the other mode is refused.
    public let responseMode: ResponseMode
    /// The response encryption private key (`dc_api.jwt` only).
    public let encryptionKey: PrivateKey?
    /// The public JWK of `encryptionKey` as published (`dc_api.jwt` only).
    public let jwk: EncryptionJWK?
    /// The `enc` values offered in `encrypted_response_enc_values_supported`.
    public let encryptionValues: [String]
    /// The DCQL credential query ids asked for; each must be answered, and a `vp_token` key outside them is refused.
    /// Empty (a session kept before the ids were): any id, none required.
    public let queryIDs: [String]
    /// Each credential query's `doctype_value`, by query id: every document presented for a query must be of it, and
    /// a presentation for a query without one fails `vp_token.doctype`. Empty with no `queryIDs` or no `request`: not
    /// known, and that check is skipped.
    public let queryDocTypes: [String: String]
    /// The handover the session transcript is built with.
    public let handover: Handover
    /// Draft 24 only: the `client_id` hashed into the transcript (`web-origin:` + origin for unsigned requests).
    public let clientID: String?
    /// What was asked for; nil skips the request-policy check.
    public let request: RequestPolicy?
    /// The profile the request was made under; `haip` adds the checks `haip.encryption` and `haip.presentation`.
    public let profile: OpenID4VPProfile

    /// The `enc` values offered by default: A128GCM and A256GCM.
    public static let defaultEncryptionValues = ["A128GCM", "A256GCM"]

    /// Creates a session from the values kept for one request.
    ///
    /// `queryDocTypes` nil (values kept before they were): each query id's `doctype_value` is taken from `request`,
    /// whose documents make the DCQL credential queries in order; a query id `request` does not make gets none.
    public init(origin: String, nonce: String, responseMode: ResponseMode = .dcAPIJWT, encryptionKey: PrivateKey?, jwk: EncryptionJWK?,
                encryptionValues: [String] = defaultEncryptionValues, queryIDs: [String] = [], queryDocTypes: [String: String]? = nil,
                handover: Handover = .v1, clientID: String? = nil, request: RequestPolicy?, profile: OpenID4VPProfile = .default) {
        self.origin = origin
        self.nonce = nonce
        self.responseMode = responseMode
        self.encryptionKey = encryptionKey
        self.jwk = jwk
        self.encryptionValues = encryptionValues
        self.queryIDs = queryIDs
        self.queryDocTypes = queryDocTypes ?? Self.docTypes(of: queryIDs, request: request)
        self.handover = handover
        self.clientID = clientID
        self.request = request
        self.profile = profile
    }

    /// The `doctype_value` of each of `queryIDs` as `DCQLQuery` makes the queries from `request`; empty without
    /// query ids or a request.
    static func docTypes(of queryIDs: [String], request: RequestPolicy?) -> [String: String] {
        guard !queryIDs.isEmpty, let request, let query = try? DCQLQuery(request) else { return [:] }
        var docTypes: [String: String] = [:]
        for (id, document) in zip(query.ids, request.documents) where queryIDs.contains(id) { docTypes[id] = document.docType }
        return docTypes
    }

    /// The session transcript of this request (OpenID4VP 1.0 Appendix B.2.6.2, or draft 24): the thumbprint of our
    /// JWK for `dc_api.jwt`, null for `dc_api`, decided by what was asked for, not by how the answer came.
    public var transcript: SessionTranscript {
        switch handover {
        case .v1:
            return .openID4VPDCAPI(origin: origin, nonce: nonce, jwkThumbprint: responseMode == .dcAPIJWT ? jwk?.thumbprint : nil)
        case .draft24:
            return .openID4VPDCAPIDraft24(origin: origin, clientID: clientID ?? "web-origin:" + origin, nonce: nonce)
        }
    }
}
