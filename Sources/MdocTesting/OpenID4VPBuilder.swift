import CBOR
import CryptoCore
import Foundation
import Mdoc
import Verifier

/// An OpenID4VP request as the simulated wallet answers it: origin, nonce, response mode, the verifier's
/// encryption JWK (`dc_api.jwt`) and the credential query id. Built from a seed (the kit keeps the private key,
/// so `session` verifies the answer), or read from the `data` a server handed to the page.
public struct OpenID4VPRequest: Sendable {
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
    /// The DCQL credential query id the `vp_token` answers (the first query's, for a request read from `data`).
    public let queryID: String
    /// The encryption key's private half, when the kit made the request.
    public let encryptionKey: PrivateKey?

    /// A request whose key and nonce come from `seed`.
    public init(seed: UInt64, origin: String = "https://verifier.example", responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT,
                queryID: String = "org_iso_18013_5_1_mDL") throws {
        let material = SeedMaterial(seed)
        self.origin = origin
        nonce = Base64URL.encode(material.bytes("openid4vp/nonce", count: 32))
        self.responseMode = responseMode
        protocolIdentifier = "openid4vp-v1-unsigned"
        self.queryID = queryID
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
        guard var parameters = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
            throw invalid("data is not a JSON object")
        }
        if let jws = parameters["request"] as? String {
            let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count == 3, let payload = Base64URL.decodeStrict(String(segments[1])),
                  let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
            else { throw invalid("request is not a compact JWS with a JSON payload") }
            parameters = object
        }
        guard let nonce = parameters["nonce"] as? String,
              let mode = (parameters["response_mode"] as? String).flatMap(OpenID4VPSession.ResponseMode.init(rawValue:)),
              let dcql = parameters["dcql_query"] as? [String: Any], let queries = dcql["credentials"] as? [[String: Any]],
              let queryID = queries.first?["id"] as? String
        else { throw invalid("nonce, response_mode or dcql_query missing") }
        self.origin = origin
        self.nonce = nonce
        responseMode = mode
        self.protocolIdentifier = protocolIdentifier
        self.queryID = queryID
        encryptionKey = nil
        if mode == .dcAPIJWT {
            guard let metadata = parameters["client_metadata"] as? [String: Any], let jwks = metadata["jwks"] as? [String: Any],
                  let key = (jwks["keys"] as? [[String: Any]])?.first, let x = key["x"] as? String, let y = key["y"] as? String,
                  let kid = key["kid"] as? String
            else { throw invalid("client_metadata.jwks has no P-256 key with kid") }
            jwk = EncryptionJWK(kid: kid, x: x, y: y)
        } else {
            jwk = nil
        }
    }

    /// The OpenID4VP 1.0 DC API transcript of this request.
    public var transcript: SessionTranscript {
        .openID4VPDCAPI(origin: origin, nonce: nonce, jwkThumbprint: responseMode == .dcAPIJWT ? jwk?.thumbprint : nil)
    }

    /// What a verifier keeps for this request (only for requests the kit made: it holds the key).
    public var session: OpenID4VPSession {
        OpenID4VPSession(origin: origin, nonce: nonce, responseMode: responseMode, encryptionKey: encryptionKey, jwk: jwk,
                         queryIDs: [queryID], request: nil)
    }
}

/// The wallet's answer: `{"protocol", "data"}` with `data.vp_token` (`dc_api`) or `data.response`, a compact JWE
/// (ECDH-ES with a fresh ephemeral key, Concat KDF, A128GCM, `kid` echoed) (`dc_api.jwt`).
enum OpenID4VPResponseBuilder {
    static func answer(deviceResponse: [UInt8], request: OpenID4VPRequest, recipient: PublicKey?, corruptCiphertext: Bool) throws -> String {
        let payload = JSONValue.object([("vp_token", .object([(request.queryID, .array([.string(Base64URL.encode(deviceResponse))]))]))])
        let data: JSONValue
        switch request.responseMode {
        case .dcAPI:
            data = payload
        case .dcAPIJWT:
            guard let jwk = request.jwk, let recipient else { throw SimulationError.invalidOption("openid4vp: no encryption key to answer to") }
            data = .object([("response", .string(try seal(Array(payload.serialized().utf8), to: recipient, kid: jwk.kid,
                                                          corruptCiphertext: corruptCiphertext)))])
        }
        return JSONValue.object([("protocol", .string(request.protocolIdentifier)), ("data", data)]).serialized()
    }

    static func seal(_ plaintext: [UInt8], to recipient: PublicKey, kid: String, corruptCiphertext: Bool) throws -> String {
        let ephemeral = try PrivateKey.generate(.p256)
        let epk = try EncryptionJWK(publicKey: ephemeral.publicKey, kid: "")
        let header = JSONValue.object([
            ("alg", .string("ECDH-ES")), ("enc", .string("A128GCM")), ("kid", .string(kid)),
            ("epk", .object([("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(epk.x)), ("y", .string(epk.y))])),
        ])
        let protectedSegment = Base64URL.encode(Array(header.serialized().utf8))
        let shared = try ephemeral.sharedSecret(with: recipient)
        let key = ConcatKDF.derive(sharedSecret: shared, keyByteCount: 16, algorithmID: "A128GCM", partyUInfo: [], partyVInfo: [])
        let iv = SecureRandom.bytes(12)
        var sealed = try AEADAlgorithm.aes128GCM.seal(key: key, nonce: iv, plaintext: plaintext, aad: Array(protectedSegment.utf8))
        if corruptCiphertext { sealed[0] ^= 0x01 }
        let ciphertext = sealed.dropLast(16)
        let tag = sealed.suffix(16)
        return [protectedSegment, "", Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)].joined(separator: ".")
    }
}
