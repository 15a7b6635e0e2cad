import CryptoCore
import Foundation
import MdocModel

/// What an OpenID4VP request keeps (`OpenID4VPFlow.state`): the origin, nonce and response mode the transcript binds,
/// the credential queries, the profile, and for `dc_api.jwt` the encryption key with its published JWK.
///
/// State kept by an earlier version still reads: `queryIDs` as one comma-separated string, `queryDocTypes` as JSON
/// text, and no `profile` (the default one).
struct OpenID4VPKeptState: Codable {
    let origin: String
    let nonce: String
    let responseMode: OpenID4VPSession.ResponseMode
    let queryIDs: [String]
    let queryDocTypes: [String: String]?
    let profile: OpenID4VPProfile?
    let privateKey: String?
    let kid: String?
    let x: String?
    let y: String?

    init(_ session: OpenID4VPSession) {
        origin = session.origin
        nonce = session.nonce
        responseMode = session.responseMode
        queryIDs = session.queryIDs
        queryDocTypes = session.queryDocTypes.isEmpty ? nil : session.queryDocTypes
        profile = session.profile == .default ? nil : session.profile
        let kept = session.encryptionKey.flatMap { key in session.jwk.map { (key, $0) } }
        privateKey = kept?.0.pkcs8PEM()
        kid = kept?.1.kid
        x = kept?.1.x
        y = kept?.1.y
    }

    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        origin = try members.decode(String.self, forKey: .origin)
        nonce = try members.decode(String.self, forKey: .nonce)
        responseMode = try members.decode(OpenID4VPSession.ResponseMode.self, forKey: .responseMode)
        if let joined = try? members.decodeIfPresent(String.self, forKey: .queryIDs) {
            queryIDs = joined.split(separator: ",").map(String.init)
        } else {
            queryIDs = try members.decodeIfPresent([String].self, forKey: .queryIDs) ?? []
        }
        if let text = try? members.decodeIfPresent(String.self, forKey: .queryDocTypes) {
            guard let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
                throw DecodingError.dataCorruptedError(forKey: .queryDocTypes, in: members, debugDescription: "not an object of strings")
            }
            queryDocTypes = object
        } else {
            queryDocTypes = try members.decodeIfPresent([String: String].self, forKey: .queryDocTypes)
        }
        profile = try members.decodeIfPresent(OpenID4VPProfile.self, forKey: .profile)
        privateKey = try members.decodeIfPresent(String.self, forKey: .privateKey)
        kid = try members.decodeIfPresent(String.self, forKey: .kid)
        x = try members.decodeIfPresent(String.self, forKey: .x)
        y = try members.decodeIfPresent(String.self, forKey: .y)
    }

    /// The session, with `request` as its policy. Throws `input.malformed` when a `dc_api.jwt` state lacks its key.
    func session(request: RequestPolicy?) throws(VerificationError) -> OpenID4VPSession {
        var key: PrivateKey?
        var jwk: EncryptionJWK?
        if responseMode == .dcAPIJWT {
            guard let privateKey, let kid, let x, let y else {
                throw VerificationError(.inputMalformed, "the kept openid4vp state has no encryption key for its dc_api.jwt request")
            }
            guard let loaded = try? PrivateKey(pemEncoded: privateKey) else {
                throw VerificationError(.inputMalformed, "the kept openid4vp state's privateKey is not a PEM private key")
            }
            key = loaded
            jwk = EncryptionJWK(kid: kid, x: x, y: y)
        }
        return OpenID4VPSession(origin: origin, nonce: nonce, responseMode: responseMode, encryptionKey: key, jwk: jwk, queryIDs: queryIDs,
                                queryDocTypes: queryDocTypes, request: request, profile: profile ?? .default)
    }
}

extension OpenID4VPSession.ResponseMode: Codable {}
extension OpenID4VPProfile: Codable {}
