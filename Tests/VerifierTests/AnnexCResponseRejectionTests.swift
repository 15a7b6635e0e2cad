import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Annex C responses that must be rejected before or at decryption, each with its stable code.
@Suite("Annex C response rejections")
struct AnnexCResponseRejectionTests {
    static func session() throws -> AnnexCSession {
        try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy).session
    }

    static func verify(_ response: String, session: AnnexCSession, anchors: [Certificate] = []) -> VerificationReport {
        AnnexCFixtures.verifier(anchors: anchors).verify(response: response, session: session, at: AnnexDVector.validTime)
    }

    static func codes(_ report: VerificationReport) -> [ErrorCode] { report.errors.map(\.code) }

    @Test("A sealed DeviceResponse opens (JSON or bare string) and reaches the mdoc checks with format annex-c; deviceMac is refused")
    func opensAndReachesMdocChecks() throws {
        let session = try Self.session()
        // Annex D's response (deviceMac) sealed for this session: decryption works, then deviceMac is not accepted here.
        let json = try AnnexCFixtures.response(plaintext: AnnexDVector.deviceResponse, recipient: session.privateKey.publicKey,
                                               transcript: session.transcript)
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])["response"] ?? ""
        for input in [json, bare, "  \(json)\n"] {
            let report = Self.verify(input, session: session, anchors: [try AnnexDVector.iaca()])
            #expect(report.format == .annexC)
            #expect(report.checks.first { $0.id == .hpkeOpen }?.status == .pass)
            #expect(Self.codes(report).contains(.deviceAuthMissing))
            #expect(!report.verified)
        }
    }

    @Test("Another origin, another encryptionInfo (one character each) or another key: hpke.open_failed")
    func wrongSessionValues() throws {
        let session = try Self.session()
        let response = try AnnexCFixtures.response(plaintext: [0xa0], recipient: session.privateKey.publicKey, transcript: session.transcript)
        var info = Array(session.encryptionInfo)
        info[info.count / 2] = info[info.count / 2] == "A" ? "B" : "A"
        let variants = [
            AnnexCSession(privateKey: session.privateKey, encryptionInfo: session.encryptionInfo, origin: "https://shop.exampla", request: nil),
            AnnexCSession(privateKey: session.privateKey, encryptionInfo: String(info), origin: session.origin, request: nil),
            AnnexCSession(privateKey: try PrivateKey.generate(.p256), encryptionInfo: session.encryptionInfo, origin: session.origin, request: nil),
        ]
        for variant in variants {
            #expect(Self.codes(Self.verify(response, session: variant)) == [.hpkeOpenFailed])
        }
        // The untouched session opens it; the plaintext `{}` is then not a DeviceResponse.
        #expect(Self.codes(Self.verify(response, session: session)) == [.responseMalformed])
    }

    @Test("A plaintext that is not CBOR is response.malformed")
    func plaintextNotCBOR() throws {
        let session = try Self.session()
        let response = try AnnexCFixtures.response(plaintext: [0xff, 0x00], recipient: session.privateKey.publicKey, transcript: session.transcript)
        let report = Self.verify(response, session: session)
        #expect(Self.codes(report) == [.responseMalformed])
        #expect(report.checks.last?.id == .responseDecode)
    }

    @Test("Another protocol identifier than \"dcapi\" is envelope.unsupported")
    func otherProtocol() throws {
        let enc = try PrivateKey.generate(.p256).publicKey.uncompressedPoint
        let report = Self.verify(AnnexCFixtures.json(AnnexCFixtures.envelope(identifier: "apple", enc: .bytes(enc), cipherText: .bytes(Array(repeating: 0, count: 32)))),
                                 session: try Self.session())
        #expect(Self.codes(report) == [.envelopeUnsupported])
    }

    static var malformedResponses: [String] {
        let enc = CBORValue.bytes([0x04] + Array(repeating: 0x11, count: 64))
        let cipherText = CBORValue.bytes(Array(repeating: 0x22, count: 40))
        let good = AnnexCFixtures.envelope(enc: enc, cipherText: cipherText)
        return [
            "",
            "{}",
            #"{"response": 5}"#,
            #"{"response": "#,
            Base64URL.encode(good) + "!",
            Data(good).base64EncodedString().replacingOccurrences(of: "_", with: "/") + "+/",  // standard alphabet
            Base64URL.encode(good) + "===",
            AnnexCFixtures.json([0xff]),
            AnnexCFixtures.json(CBOREncoder.encode(.array([.text("dcapi")]))),
            AnnexCFixtures.json(CBOREncoder.encode(.array([.text("dcapi"), .map([(.text("enc"), enc), (.text("cipherText"), cipherText)]), .null]))),
            AnnexCFixtures.json(CBOREncoder.encode(.map([(.text("dcapi"), .null)]))),
            AnnexCFixtures.json(AnnexCFixtures.envelope(enc: enc, cipherText: cipherText, extra: [(.text("extra"), .null)])),
            AnnexCFixtures.json(CBOREncoder.encode(.array([.text("dcapi"), .map([(.text("enc"), enc)])]))),
            AnnexCFixtures.json(AnnexCFixtures.envelope(enc: .bytes([0x04] + Array(repeating: 0x11, count: 32)), cipherText: cipherText)),
            AnnexCFixtures.json(AnnexCFixtures.envelope(enc: .bytes([0x02] + Array(repeating: 0x11, count: 64)), cipherText: cipherText)),
            AnnexCFixtures.json(AnnexCFixtures.envelope(enc: .text("enc"), cipherText: cipherText)),
            AnnexCFixtures.json(AnnexCFixtures.envelope(enc: enc, cipherText: .bytes([1, 2, 3]))),
            AnnexCFixtures.json(CBOREncoder.encode(.array([.text("dcapi"), .map([(.unsigned(1), enc), (.text("cipherText"), cipherText)])]))),
        ]
    }

    @Test("Every shape error of the response wrapper or EncryptedResponse is input.malformed, before any decryption",
          arguments: Self.malformedResponses)
    func malformed(response: String) throws {
        let report = Self.verify(response, session: try Self.session())
        #expect(Self.codes(report) == [.inputMalformed], "\(report.errors)")
        #expect(report.checks.map(\.id) == [CheckID.inputSize, .envelopeStructure])
    }
}
