import CryptoCore
import Mdoc

/// What the server keeps for one OpenID4VP request until its response arrives (docs/formats.md §7.5): the origin
/// and nonce the transcript binds, the response mode asked for, the encryption key and the `enc` values offered,
/// and the credential query ids. Keep it server-side and use it once.
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
    /// The DCQL credential query ids asked for; a `vp_token` key outside them is refused. Empty: any id.
    public let queryIDs: [String]
    /// The handover the session transcript is built with.
    public let handover: Handover
    /// Draft 24 only: the `client_id` hashed into the transcript (`web-origin:` + origin for unsigned requests).
    public let clientID: String?
    /// What was asked for; nil skips the request-policy check.
    public let request: RequestPolicy?

    /// The `enc` values offered by default: A128GCM and A256GCM.
    public static let defaultEncryptionValues = ["A128GCM", "A256GCM"]

    /// Creates a session from the values kept for one request.
    public init(origin: String, nonce: String, responseMode: ResponseMode = .dcAPIJWT, encryptionKey: PrivateKey?, jwk: EncryptionJWK?,
                encryptionValues: [String] = defaultEncryptionValues, queryIDs: [String] = [], handover: Handover = .v1,
                clientID: String? = nil, request: RequestPolicy?) {
        self.origin = origin
        self.nonce = nonce
        self.responseMode = responseMode
        self.encryptionKey = encryptionKey
        self.jwk = jwk
        self.encryptionValues = encryptionValues
        self.queryIDs = queryIDs
        self.handover = handover
        self.clientID = clientID
        self.request = request
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
