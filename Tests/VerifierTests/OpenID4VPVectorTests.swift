import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Every vector in TestVectors/openid4vp gives the result its README states: the spec's handover and JWE examples,
/// RFC 7518 Appendix C, real CMWallet responses (1.0 `dc_api.jwt` and `dc_api`, draft 24) end to end, the Google
/// Wallet device signature with the RFC 7638 thumbprint, and the synthetic negatives.
@Suite("OpenID4VP vectors")
struct OpenID4VPVectorTests {
    static func vector(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: VectorFiles.url("TestVectors/openid4vp/\(name)/vector.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func text(_ value: Any?) throws -> String { try #require(value as? String) }

    static func bytes(_ text: Any?) throws -> [UInt8] { try #require((text as? String).flatMap(Base64URL.decodeStrict)) }

    static func privateKey(_ jwk: Any?) throws -> PrivateKey {
        let object = try #require(jwk as? [String: Any])
        return try PrivateKey(curve: .p256, rawScalar: try bytes(object["d"]))
    }

    static func jwk(_ object: Any?) throws -> EncryptionJWK {
        let jwk = try #require(object as? [String: Any])
        return EncryptionJWK(kid: jwk["kid"] as? String ?? "", x: try #require(jwk["x"] as? String), y: try #require(jwk["y"] as? String))
    }

    /// The vectors' trust anchor: the self-signed document signer in the first document's x5chain.
    static func anchor(_ deviceResponse: [UInt8]) throws -> TrustStore {
        let response = try CBORDecoder.decode(deviceResponse, limits: .default)
        let document = try #require(response.map?.first { $0.key.text == "documents" }?.value.array?.first)
        let issuerSigned = try #require(document.map?.first { $0.key.text == "issuerSigned" }?.value)
        let issuerAuth = try #require(issuerSigned.map?.first { $0.key.text == "issuerAuth" }?.value.array)
        let unprotected = try #require(issuerAuth[1].map)
        let x5chain = try #require(unprotected.first { $0.key.int == 33 }?.value)
        let der = try #require(x5chain.bytes.map(Array.init) ?? x5chain.array?.first?.bytes.map(Array.init))
        return TrustStore(anchors: [try Certificate(derEncoded: der)], allowNonSelfSignedAnchors: true)
    }

    /// A session for a CMWallet-era or synthetic vector, verified through `OpenID4VPVerifier`.
    static func verify(_ name: String, response: String? = nil, handover: OpenID4VPSession.Handover = .v1,
                       encryptionValues: [String] = OpenID4VPSession.defaultEncryptionValues) throws -> VerificationReport {
        let v = try vector(name)
        let mode = try #require(OpenID4VPSession.ResponseMode(rawValue: try Self.text(v["response_mode"])))
        let deviceResponse = try bytes(v["device_response_b64u"])
        let encrypted = mode == .dcAPIJWT
        let session = OpenID4VPSession(
            origin: try #require(v["origin"] as? String), nonce: try #require(v["nonce"] as? String), responseMode: mode,
            encryptionKey: encrypted ? try privateKey(v["verifier_private_jwk"]) : nil,
            jwk: encrypted ? try jwk(v["verifier_public_jwk"]) : nil, encryptionValues: encryptionValues, handover: handover,
            clientID: v["client_id"] as? String, request: nil)
        let posted: String
        if let response {
            posted = response
        } else if let result = v["dc_response"] {
            posted = String(decoding: try JSONSerialization.data(withJSONObject: result), as: UTF8.self)
        } else {
            let data = try #require(v["dc_response_data"])
            posted = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
        }
        let configuration = VerifierConfiguration(trustStore: try anchor(deviceResponse), revocation: .off)
        let time = try #require(RFC3339.parseDateTime(try Self.text(v["verify_time"])))
        return OpenID4VPVerifier(configuration: configuration).verify(response: posted, session: session, at: time)
    }

    static func line(_ report: VerificationReport, _ id: CheckID) -> CheckResult? { report.checks.first { $0.id == id } }

    @Test("spec B.2.6.2: the JWK thumbprint and the DC API transcript reproduce byte for byte")
    func specHandover() throws {
        let v = try Self.vector("spec-1.0-handover-examples")
        let jwk = try Self.jwk(v["encryption_jwk"])
        let dcapi = try #require(v["dcapi"] as? [String: Any])
        let transcript = SessionTranscript.openID4VPDCAPI(origin: try #require(v["origin"] as? String), nonce: try #require(v["nonce"] as? String),
                                                          jwkThumbprint: jwk.thumbprint)
        #expect(Hex.encode(transcript.bytes) == dcapi["session_transcript_hex"] as? String)
        // The thumbprint is the last 32 bytes of the handover info ([origin, nonce, h'…']).
        let info = try #require(dcapi["handover_info_hex"] as? String)
        #expect(info.hasSuffix(Hex.encode(jwk.thumbprint)))
        #expect(Hex.encode(jwk.thumbprint).hasPrefix("4283ec92"))
    }

    @Test("RFC 7518 Appendix C: ECDH-ES Z and the Concat KDF CEK reproduce")
    func concatKDF() throws {
        let v = try Self.vector("rfc7518-appC-concatkdf")
        let header = try #require(v["protected_header"] as? [String: Any])
        let epk = try #require(header["epk"] as? [String: Any])
        let peer = try PublicKey(curve: .p256, x: try Self.bytes(epk["x"]), y: try Self.bytes(epk["y"]))
        let z = try Self.privateKey(v["recipient_private_jwk"]).sharedSecret(with: peer)
        #expect(Hex.encode(z) == v["expected_Z_hex"] as? String)
        let cek = ConcatKDF.derive(sharedSecret: z, keyByteCount: 16, algorithmID: "A128GCM", partyUInfo: Array("Alice".utf8),
                                   partyVInfo: Array("Bob".utf8))
        #expect(Base64URL.encode(cek) == v["expected_CEK_b64u"] as? String)
    }

    @Test("real CMWallet responses verify end to end: 1.0 dc_api.jwt (no kid, bare-string vp_token: two warnings), 1.0 dc_api, draft 24",
          arguments: [("sdc-v1-dc_api.jwt-mvrc", OpenID4VPSession.Handover.v1), ("sdc-v1-dc_api-mdl", .v1), ("sdc-v1-dc_api-mdl-2", .v1),
                      ("sdc-d24-dc_api-mdl", .draft24), ("sdc-d24-dc_api.jwt-mvrc", .draft24)])
    func cmWallet(name: String, handover: OpenID4VPSession.Handover) throws {
        let report = try Self.verify(name, handover: handover)
        #expect(report.verified, "\(name): \(report.errors)")
        #expect(report.documents.count == 1)
        if name == "sdc-v1-dc_api.jwt-mvrc" {
            #expect(Self.line(report, .jweRecipient)?.status == .warn)
            #expect(Self.line(report, .vpTokenStructure)?.status == .warn)
        }
    }

    @Test("the 1.0 responses fail device authentication under the draft-24 transcript, and the draft-24 ones under 1.0")
    func wrongHandover() throws {
        #expect(try Self.verify("sdc-v1-dc_api-mdl", handover: .draft24).errors.map(\.code) == [.deviceSignatureInvalid])
        #expect(try Self.verify("sdc-d24-dc_api-mdl", handover: .v1).errors.map(\.code) == [.deviceSignatureInvalid])
    }

    @Test("synthetic: A256GCM with kid and apu/apv verifies; zip DEF is inflated and verifies; a response re-encrypted to another key decrypts but fails device authentication")
    func synthetic() throws {
        let a256 = try Self.verify("synthetic-v1-a256gcm-kid-apu")
        #expect(a256.verified, "\(a256.errors)")
        #expect(Self.line(a256, .jweRecipient)?.status == .pass && Self.line(a256, .vpTokenStructure)?.status == .pass)
        let zip = try Self.verify("synthetic-v1-zip-def")
        #expect(zip.verified, "\(zip.errors)")
        #expect(Self.line(zip, .jweAlgorithm)?.detail.contains("zip DEF") == true)
        let other = try Self.verify("synthetic-v1-reencrypted-other-key")
        #expect(Self.line(other, .jweDecrypt)?.status == .pass)
        #expect(other.errors.map(\.code) == [.deviceSignatureInvalid])
    }

    @Test("synthetic JWE negatives: tag flip and header edit fail decryption, a foreign kid and A192GCM are refused, no kid warns and verifies")
    func jweNegatives() throws {
        let v = try Self.vector("synthetic-v1-jwe-negatives")
        let cases = try #require(v["cases"] as? [[String: Any]])
        var seen: [String: [ErrorCode]] = [:]
        for item in cases {
            let name = String(try #require(item["name"] as? String).prefix { $0 != " " })
            let report = try Self.verify("synthetic-v1-jwe-negatives", response: try #require(item["jwe"] as? String))
            seen[name] = report.errors.map(\.code)
        }
        #expect(seen["tag_bit_flip"] == [.jweDecryptionFailed])
        #expect(seen["protected_header_modified"] == [.jweDecryptionFailed])
        #expect(seen["kid_not_ours"] == [.jweKeyIDMismatch])
        #expect(seen["kid_absent"] == [])
        #expect(seen["enc_not_advertised"] == [.jweEncryptionNotAllowed])
        #expect(seen.count == 5, "\(seen.keys.sorted())")
    }

    @Test("JWE-only vectors: the spec's §8.3 example and an SD-JWT response decrypt; their payload is not an mdoc (vp_token.malformed)")
    func jweOnly() throws {
        let spec = try Self.vector("spec-1.0-jwe-example")
        let session = OpenID4VPSession(origin: "https://example.com", nonce: "n", encryptionKey: try Self.privateKey(spec["recipient_private_jwk"]),
                                       jwk: try Self.jwk(spec["recipient_private_jwk"]), request: nil)
        let anchor = TrustStore(anchors: [])
        let report = OpenID4VPVerifier(configuration: VerifierConfiguration(trustStore: anchor))
            .verify(response: try #require(spec["jwe"] as? String), session: session)
        #expect(Self.line(report, .jweDecrypt)?.status == .pass)
        #expect(report.errors.map(\.code) == [.vpTokenMalformed])

        let sdjwt = try Self.vector("sdc-v1-dc_api.jwt-sdjwt-jwe-only")
        let sdSession = OpenID4VPSession(origin: "http://localhost:8000", nonce: try #require(sdjwt["nonce"] as? String),
                                         encryptionKey: try Self.privateKey(sdjwt["verifier_private_jwk"]),
                                         jwk: try Self.jwk(sdjwt["verifier_public_jwk"]), request: nil)
        let data = String(decoding: try JSONSerialization.data(withJSONObject: try #require(sdjwt["dc_response_data"])), as: UTF8.self)
        let sdReport = OpenID4VPVerifier(configuration: VerifierConfiguration(trustStore: anchor)).verify(response: data, session: sdSession)
        #expect(Self.line(sdReport, .jweDecrypt)?.status == .pass)
        #expect(sdReport.errors.map(\.code) == [.vpTokenMalformed])
    }

    @Test("Google Wallet capture: the device signature verifies over DeviceAuthentication with the RFC 7638 thumbprint, not with null")
    func googleWalletDeviceSignature() throws {
        let v = try Self.vector("opencred-google-wallet-devicesig")
        let jwk = try Self.jwk(v["verifier_encryption_public_jwk"])
        let deviceKeyJWK = try #require(v["device_key_jwk"] as? [String: Any])
        let deviceKey = try PublicKey(curve: .p256, x: try Self.bytes(deviceKeyJWK["x"]), y: try Self.bytes(deviceKeyJWK["y"]))
        let protected = try #require(Hex.decode(try Self.text(v["device_signature_protected_hex"])))
        let signature = try #require(Hex.decode(try Self.text(v["device_signature_hex"])))
        func verifies(_ thumbprint: [UInt8]?) throws -> Bool {
            let transcript = SessionTranscript.openID4VPDCAPI(origin: try #require(v["origin"] as? String), nonce: try #require(v["nonce"] as? String),
                                                              jwkThumbprint: thumbprint)
            let authentication = CBOREncoder.encode(.array([
                .text("DeviceAuthentication"), .encoded(transcript.bytes), .text(try #require(v["docType"] as? String)),
                .tagged(24, .bytes([0xA0])),
            ]))
            let toBeSigned = CBOREncoder.encode(.array([
                .text("Signature1"), .bytes(protected), .bytes([]), .bytes(CBOREncoder.encode(.tagged(24, .bytes(authentication)))),
            ]))
            return deviceKey.isValidSignature(signature, for: toBeSigned, digest: .sha256)
        }
        #expect(try verifies(jwk.thumbprint))
        #expect(try !verifies(nil))
    }
}
