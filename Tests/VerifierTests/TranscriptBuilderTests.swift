import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Every handover builder against a published transcript or against CBOR written out byte by byte here.
@Suite("Session transcript builders")
struct TranscriptBuilderTests {
    static let folder = AnnexDVector.folder

    /// EReaderKey COSE_Key from keys.json, written as CBOR by hand: {1: 2, -1: 1, -2: x, -3: y}.
    static func eReaderKeyCOSE() throws -> [UInt8] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(VectorFiles.text(folder + "keys.json").utf8)) as? [String: Any])
        let reader = try #require(json["eReaderKey"] as? [String: String])
        let x = hex(try #require(reader["x"]))
        let y = hex(try #require(reader["y"]))
        return [0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20] + x + [0x22, 0x58, 0x20] + y
    }

    /// The DeviceEngagement inside the NFC Handover Select: the payload of its last NDEF record
    /// (TNF external, type "iso.org:18013:deviceengagement", id "mdoc"; ISO/IEC 18013-5 §8.2.2.1).
    static func deviceEngagementFromHandoverSelect(_ select: [UInt8]) throws -> [UInt8] {
        let typeAndID = Array("iso.org:18013:deviceengagementmdoc".utf8)
        let start = try #require(indexAfter(typeAndID, in: select))
        // Short record header: flags, type length (30), payload length, id length (4), then type and id.
        let header = start - typeAndID.count - 4
        #expect(select[header] & 0x1f == 0x1c, "flags SR and IL set, TNF 4 (external)")
        #expect(select[header + 1] == 30 && select[header + 3] == 4)
        let payload = Array(select[start...])
        #expect(payload.count == Int(select[header + 2]))
        return payload
    }

    /// bstr head (major type 2) for lengths below 65536.
    static func bstrHead(_ count: Int) -> [UInt8] { CBORHeads.bstr(count) }

    static func tstr(_ s: String) -> [UInt8] {
        let utf8 = Array(s.utf8)
        precondition(utf8.count < 256)
        return (utf8.count < 24 ? [0x60 | UInt8(utf8.count)] : [0x78, UInt8(utf8.count)]) + utf8
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.hash(.sha256, bytes) }

    @Test("NFC: DeviceEngagement from the Handover Select, EReaderKey from keys.json, [Hs, Hr] rebuild Annex D's SessionTranscriptBytes")
    func nfcAnnexD() throws {
        let select = VectorFiles.hex(Self.folder + "eudi-ios-D5/d52_nfcHandoverSelect.hex")
        let request = VectorFiles.hex(Self.folder + "eudi-ios-D5/d52_nfcHandoverRequest.hex")
        #expect(select.count == 195 && request.count == 205)
        let engagement = try Self.deviceEngagementFromHandoverSelect(select)
        let transcript = try SessionTranscript.nfcEngagement(
            deviceEngagement: engagement, eReaderKey: try Self.eReaderKeyCOSE(), handoverSelect: select, handoverRequest: request)
        #expect(transcript.taggedBytes == AnnexDVector.sessionTranscriptBytes)
        #expect(transcript == (try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes)))
        // device_engagement.hex is the QR form of the same engagement (adds key 2, BLE retrieval options), so it
        // is not what the NFC transcript carries.
        let qrForm = VectorFiles.hex(Self.folder + "device_engagement.hex")
        #expect(qrForm != engagement)
        #expect(qrForm.first == 0xa3 && engagement.first == 0xa2)
    }

    @Test("NFC static handover: HandoverRequest null")
    func nfcStatic() throws {
        let engagement: [UInt8] = [0xa1, 0x00, 0x63, 0x31, 0x2e, 0x30]  // {0: "1.0"}
        let key = try Self.eReaderKeyCOSE()
        let select: [UInt8] = [0x91, 0x02, 0x00]
        let transcript = try SessionTranscript.nfcEngagement(deviceEngagement: engagement, eReaderKey: key, handoverSelect: select, handoverRequest: nil)
        let expected: [UInt8] = [0x83, 0xd8, 0x18, 0x46] + engagement + [0xd8, 0x18, 0x58, 0x4b] + key + [0x82, 0x43] + select + [0xf6]
        #expect(transcript.bytes == expected)
    }

    @Test("QR: [#6.24(DeviceEngagement), #6.24(EReaderKey), null] with Annex D's QR engagement")
    func qr() throws {
        let engagement = VectorFiles.hex(Self.folder + "device_engagement.hex")
        let key = try Self.eReaderKeyCOSE()
        let transcript = try SessionTranscript.qrEngagement(deviceEngagement: engagement, eReaderKey: key)
        let expected: [UInt8] = [0x83, 0xd8, 0x18] + Self.bstrHead(engagement.count) + engagement
            + [0xd8, 0x18, 0x58, 0x4b] + key + [0xf6]
        #expect(transcript.bytes == expected)
        #expect(transcript.taggedBytes == [0xd8, 0x18] + Self.bstrHead(expected.count) + expected)
    }

    @Test("QR/NFC: engagement or key that is not one CBOR map is input.malformed")
    func malformedEngagement() throws {
        let key = try Self.eReaderKeyCOSE()
        for bad: [UInt8] in [[], [0xff], [0x83, 0x01, 0x02, 0x03], [0xa0, 0x00]] {
            #expect(throws: VerificationError(.inputMalformed, "DeviceEngagement is not one well-formed CBOR map")) {
                try SessionTranscript.qrEngagement(deviceEngagement: bad, eReaderKey: key)
            }
        }
        #expect(throws: VerificationError(.inputMalformed, "EReaderKey COSE_Key is not one well-formed CBOR map")) {
            try SessionTranscript.nfcEngagement(deviceEngagement: [0xa0], eReaderKey: [0x01], handoverSelect: [], handoverRequest: nil)
        }
    }

    // OpenID4VP 1.0 final, Appendix B.2.6.1 and B.2.6.2 worked examples (non-normative): inputs and the
    // SessionTranscript hex as published (openid/OpenID4VP, openid-4-verifiable-presentations-1_0.md).
    static let exampleNonce = "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA"
    static let exampleThumbprint = hex("4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047")

    @Test("JWK thumbprint of the OpenID4VP example JWK equals the published value (RFC 7638)")
    func jwkThumbprint() throws {
        let x = try #require(Base64URL.decode("DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0"))
        let y = try #require(Base64URL.decode("XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc"))
        let key = try PublicKey(curve: .p256, x: x, y: y)
        #expect(JWKThumbprint.canonicalJSON(key)
            == #"{"crv":"P-256","kty":"EC","x":"DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0","y":"XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc"}"#)
        #expect(JWKThumbprint.sha256(key) == Self.exampleThumbprint)
    }

    @Test("OpenID4VP 1.0 redirect (B.2.6.1): the published SessionTranscript")
    func openID4VPRedirect() {
        let transcript = SessionTranscript.openID4VP(
            clientID: "x509_san_dns:example.com", nonce: Self.exampleNonce, jwkThumbprint: Self.exampleThumbprint,
            responseURI: "https://example.com/response")
        #expect(transcript.bytes == hex("""
            83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8e
            ed494cefdd9d95240d254b046b11b68013722aad38ac
            """))
        // Unencrypted response: the thumbprint is CBOR null (f6) in OpenID4VPHandoverInfo.
        let info = [0x84] + Self.tstr("x509_san_dns:example.com") + Self.tstr(Self.exampleNonce) + [0xf6]
            + Self.tstr("https://example.com/response")
        let plain = SessionTranscript.openID4VP(clientID: "x509_san_dns:example.com", nonce: Self.exampleNonce, jwkThumbprint: nil,
                                                responseURI: "https://example.com/response")
        #expect(plain.bytes == [0x83, 0xf6, 0xf6, 0x82] + Self.tstr("OpenID4VPHandover") + [0x58, 0x20] + Self.sha256(info))
    }

    @Test("OpenID4VP 1.0 over the DC API (B.2.6.2): the published SessionTranscript; null thumbprint for dc_api")
    func openID4VPDCAPI() {
        let transcript = SessionTranscript.openID4VPDCAPI(origin: "https://example.com", nonce: Self.exampleNonce,
                                                          jwkThumbprint: Self.exampleThumbprint)
        #expect(transcript.bytes == hex("""
            83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4
            212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a
            """))
        let info = [0x83] + Self.tstr("https://example.com") + Self.tstr(Self.exampleNonce) + [0xf6]
        let plain = SessionTranscript.openID4VPDCAPI(origin: "https://example.com", nonce: Self.exampleNonce, jwkThumbprint: nil)
        #expect(plain.bytes == [0x83, 0xf6, 0xf6, 0x82] + Self.tstr("OpenID4VPDCAPIHandover") + [0x58, 0x20] + Self.sha256(info))
    }

    @Test("OpenID4VP draft 24 over the DC API (B.3.4): [origin, client_id, nonce] hashed, built by hand")
    func openID4VPDCAPIDraft24() {
        // OpenID4VPDCAPIHandoverInfo (draft 24) = [origin, clientId, nonce]; clientId "web-origin:<origin>" for unsigned requests.
        let transcript = SessionTranscript.openID4VPDCAPIDraft24(origin: "https://example.com", clientID: "web-origin:https://example.com",
                                                                 nonce: "abc")
        let info: [UInt8] = [0x83, 0x73] + Array("https://example.com".utf8) + [0x78, 0x1e] + Array("web-origin:https://example.com".utf8)
            + [0x63] + Array("abc".utf8)
        let expected: [UInt8] = [0x83, 0xf6, 0xf6, 0x82, 0x76] + Array("OpenID4VPDCAPIHandover".utf8) + [0x58, 0x20] + Self.sha256(info)
        #expect(transcript.bytes == expected)
    }

    @Test("OpenID4VP draft 18 / ISO 18013-7 Annex B (B.4.4): [clientIdHash, responseUriHash, nonce], built by hand")
    func openID4VPDraft18() {
        // clientIdHash = SHA-256(cbor([client_id, mdocGeneratedNonce])), responseUriHash likewise with response_uri.
        let transcript = SessionTranscript.openID4VPDraft18(clientID: "example.com", responseURI: "https://example.com/response",
                                                            nonce: "abc", mdocGeneratedNonce: "xyz")
        let clientIDToHash: [UInt8] = [0x82, 0x6b] + Array("example.com".utf8) + [0x63] + Array("xyz".utf8)
        let responseURIToHash: [UInt8] = [0x82, 0x78, 0x1c] + Array("https://example.com/response".utf8) + [0x63] + Array("xyz".utf8)
        let expected: [UInt8] = [0x83, 0xf6, 0xf6, 0x83, 0x58, 0x20] + Self.sha256(clientIDToHash) + [0x58, 0x20]
            + Self.sha256(responseURIToHash) + [0x63] + Array("abc".utf8)
        #expect(transcript.bytes == expected)
    }

    @Test("Annex C with Apple's sample encryptionInfo: the text is hashed as sent, padding changes the transcript")
    func annexCWithAppleString() throws {
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(VectorFiles.text("TestVectors/apple/web-annex-c/apple_doc_sample_request.json").utf8)) as? [String: String])
        let info = try #require(json["encryptionInfo"])
        let origin = "https://shop.example"
        let dcapiInfo: [UInt8] = [0x82, 0x78, UInt8(info.utf8.count)] + Array(info.utf8) + [0x74] + Array(origin.utf8)
        let expected: [UInt8] = [0x83, 0xf6, 0xf6, 0x82, 0x65] + Array("dcapi".utf8) + [0x58, 0x20] + Self.sha256(dcapiInfo)
        #expect(SessionTranscript.annexC(encryptionInfo: info, origin: origin).bytes == expected)
        #expect(SessionTranscript.annexC(encryptionInfo: info + "=", origin: origin).bytes != expected)
    }
}
