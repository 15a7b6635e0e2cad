import CryptoCore
import Foundation
import MdocModel

extension OpenID4VPRedirectSession {
    /// The longest `wallet_nonce` echoed into a request object.
    public static let maxWalletNonceLength = 256
    /// The longest `wallet_metadata` read.
    public static let maxWalletMetadataBytes = 16_384

    /// The request object the wallet fetches from `request_uri` (OpenID4VP 1.0 §5, §5.10; RFC 9101): a JWS
    /// (`typ: oauth-authz-req+jwt`, `x5c`) signed by `reader`, with `client_id`, `response_type`, `response_mode`,
    /// `response_uri`, `nonce`, `state`, `dcql_query`, `client_metadata` (the encryption key, its `enc` values and the
    /// mdoc algorithms), `aud` `https://self-issued.me/v2`, `iat`, `exp`, and `wallet_nonce` when the wallet sent one
    /// (POST to `request_uri`, §5.10.1). Serve it with content type `application/oauth-authz-req+jwt`.
    ///
    /// Throws `redirect.wallet_unsupported` when `walletMetadata` rules out what this request needs, and
    /// `redirect.request_invalid` when `walletMetadata` is not a JSON object, `walletNonce` is longer than
    /// `maxWalletNonceLength`, or `reader` is no longer the identity the `client_id` names.
    public func requestObject(reader: ReaderIdentity, walletNonce: String? = nil, walletMetadata: String? = nil,
                              issuedAt: Date) throws(VerificationError) -> String {
        guard let prefix = clientID.split(separator: ":", maxSplits: 1).first.flatMap({ OpenID4VPWebRequest.ClientIDPrefix(rawValue: String($0)) }),
              (try? OpenID4VPWebRequest.clientIdentifier(reader, prefix: prefix)) == clientID
        else {
            throw VerificationError(.redirectRequestInvalid, "the reader identity no longer matches the request's client_id "
                                    + "(the reader certificate changed since the request was made); make a new request")
        }
        if let walletNonce, walletNonce.utf8.count > Self.maxWalletNonceLength {
            throw VerificationError(.redirectRequestInvalid, "wallet_nonce is \(walletNonce.utf8.count) bytes; at most "
                                    + "\(Self.maxWalletNonceLength) are echoed")
        }
        guard let algorithm = JWSAlgorithm(signingWith: reader.key.curve)?.rawValue else {
            throw VerificationError(.inputMalformed, "a \(reader.key.curve.rawValue) reader key cannot sign a JWS (ES256/384/512)")
        }
        if let walletMetadata { try WalletMetadata(walletMetadata).check(self, signingAlgorithm: algorithm, prefix: prefix) }
        var members: [(String, JSONValue)] = [
            ("client_id", .string(clientID)), ("response_type", .string("vp_token")), ("response_mode", .string(responseMode.rawValue)),
            ("response_uri", .string(responseURI)), ("nonce", .string(nonce)), ("state", .string(state)),
            ("client_metadata", clientMetadata), ("aud", .string("https://self-issued.me/v2")),
            ("iat", .int(Int64(issuedAt.timeIntervalSince1970))), ("exp", .int(Int64(expiresAt.timeIntervalSince1970))),
        ]
        if let walletNonce { members.append(("wallet_nonce", .string(walletNonce))) }
        // The DCQL query is kept as the JSON text the request was made with, and spliced in as it is.
        let payload = String(JSONValue.object(members).serialized().dropLast()) + ",\"dcql_query\":" + dcqlQuery + "}"
        let chain = profile == .haip ? OpenID4VPProfile.haipChain(reader) : reader.certificates
        return try reader.signedRequestObject(payload, chain: chain)
    }

    /// `client_metadata`: the encryption key (`direct_post.jwt`), the `enc` values offered and the mdoc algorithms.
    private var clientMetadata: JSONValue {
        guard case .object(var members) = OpenID4VPWebRequest.clientMetadata(jwk) else { return OpenID4VPWebRequest.clientMetadata(jwk) }
        if jwk != nil, let index = members.firstIndex(where: { $0.0 == "encrypted_response_enc_values_supported" }) {
            members[index].1 = .array(encryptionValues.map(JSONValue.string))
        }
        return .object(members)
    }
}

/// What a wallet says it supports, posted to `request_uri` as `wallet_metadata` (OpenID4VP 1.0 §5.10.1, §10): only
/// the members that can rule this request out are read; unknown members are ignored.
struct WalletMetadata {
    let object: JSONValue

    init(_ text: String) throws(VerificationError) {
        guard text.utf8.count <= OpenID4VPRedirectSession.maxWalletMetadataBytes,
              let object = JSONValue.object(text, maxNodes: OpenID4VPRedirectSession.maxWalletMetadataBytes)
        else {
            throw VerificationError(.redirectRequestInvalid, "wallet_metadata is not a JSON object of at most "
                                    + "\(OpenID4VPRedirectSession.maxWalletMetadataBytes) bytes")
        }
        self.object = object
    }

    /// Throws `redirect.wallet_unsupported` naming each thing the wallet cannot do that this request needs.
    func check(_ session: OpenID4VPRedirectSession, signingAlgorithm: String, prefix: OpenID4VPWebRequest.ClientIDPrefix) throws(VerificationError) {
        for name in Self.arrayMembers where object[name] != nil && strings(name) == nil {
            throw VerificationError(.redirectRequestInvalid, "wallet_metadata's \(name) is not an array of strings")
        }
        if let formats = object["vp_formats_supported"], !formats.isObject {
            throw VerificationError(.redirectRequestInvalid, "wallet_metadata's vp_formats_supported is not an object")
        }
        var missing: [String] = []
        if let values = strings("request_object_signing_alg_values_supported"), !values.contains(signingAlgorithm) {
            missing.append("the request object is signed with \(signingAlgorithm), not in request_object_signing_alg_values_supported")
        }
        if let values = strings("client_id_prefixes_supported"), !values.contains(prefix.rawValue) {
            missing.append("the client_id prefix is \(prefix.rawValue), not in client_id_prefixes_supported")
        }
        if session.responseMode == .directPostJWT {
            if let values = strings("authorization_encryption_alg_values_supported"), !values.contains("ECDH-ES") {
                missing.append("the response is encrypted with ECDH-ES, not in authorization_encryption_alg_values_supported")
            }
            if let values = strings("authorization_encryption_enc_values_supported"), !values.contains(where: session.encryptionValues.contains) {
                missing.append("the response is encrypted with \(session.encryptionValues.joined(separator: " or ")), none of them in "
                               + "authorization_encryption_enc_values_supported")
            }
        }
        if let formats = object["vp_formats_supported"], formats["mso_mdoc"] == nil {
            missing.append("the request asks for mso_mdoc, not in vp_formats_supported")
        }
        guard missing.isEmpty else {
            throw VerificationError(.redirectWalletUnsupported, "the wallet cannot answer this request: " + missing.joined(separator: "; "))
        }
    }

    private static let arrayMembers = [
        "request_object_signing_alg_values_supported", "client_id_prefixes_supported", "authorization_encryption_alg_values_supported",
        "authorization_encryption_enc_values_supported",
    ]

    private func strings(_ name: String) -> [String]? {
        guard let items = object[name]?.array else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }
}
