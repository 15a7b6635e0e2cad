import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Annex C request creation (ISO/IEC TS 18013-7 Annex C): what goes to navigator.credentials.get parses back,
/// what the server keeps matches it, and Apple's sample request decodes with the same parsers.
@Suite("Annex C requests")
struct AnnexCRequestTests {
    static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test("An unsigned request: both strings unpadded base64url; DeviceRequest 1.1 and EncryptionInfo parse back; session matches")
    func unsignedRequest() throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        #expect(request.deviceRequest.allSatisfy(Self.base64URLAlphabet.contains))
        #expect(request.encryptionInfo.allSatisfy(Self.base64URLAlphabet.contains))
        #expect(request.session.encryptionInfo == request.encryptionInfo)
        #expect(request.session.origin == AnnexCFixtures.origin)
        #expect(request.session.request == AnnexCFixtures.policy)

        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(request.deviceRequest)))
        #expect(deviceRequest.version == "1.1")
        #expect(deviceRequest.readerAuthAll.isEmpty && deviceRequest.deviceRequestInfoBytes == nil)
        let items = try #require(deviceRequest.docRequests.first?.itemsRequest)
        #expect(deviceRequest.docRequests.count == 1 && deviceRequest.docRequests[0].readerAuth == nil)
        #expect(items.docType == AnnexCFixtures.mDL)
        #expect(items.nameSpaces.first?.elements == [.init("age_over_21", intentToRetain: true), .init("family_name", intentToRetain: false),
                                                     .init("given_name", intentToRetain: false)])
        #expect(deviceRequest.policy == AnnexCFixtures.policy)

        // ["dcapi", {"nonce": h'<32 bytes>', "recipientPublicKey": {1: 2, -1: 1, -2: x, -3: y}}], byte for byte.
        let info = try AnnexCEncryptionInfo(base64URL: request.encryptionInfo)
        #expect(info.nonce.count == 32)
        #expect(info.recipientPublicKey == request.session.privateKey.publicKey)
        let point = request.session.privateKey.publicKey.uncompressedPoint
        let expected: [UInt8] = [0x82, 0x65] + Array("dcapi".utf8) + [0xa2, 0x65] + Array("nonce".utf8) + [0x58, 0x20] + info.nonce
            + [0x72] + Array("recipientPublicKey".utf8) + [0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20] + Array(point[1...32])
            + [0x22, 0x58, 0x20] + Array(point[33...64])
        #expect(Base64URL.decode(request.encryptionInfo) == expected)

        #expect(request.data.serialized() == #"{"deviceRequest":""# + request.deviceRequest + #"","encryptionInfo":""# + request.encryptionInfo + #""}"#)
        let options = request.credentialRequestOptions.serialized()
        #expect(options.hasPrefix(#"{"mediation":"required","digital":{"requests":[{"protocol":"org-iso-mdoc","data":{"deviceRequest":"#))
    }

    @Test("Every request has its own recipient key and nonce")
    func freshPerRequest() throws {
        let first = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        let second = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        #expect(first.session.privateKey.publicKey != second.session.privateKey.publicKey)
        #expect(try AnnexCEncryptionInfo(base64URL: first.encryptionInfo).nonce != AnnexCEncryptionInfo(base64URL: second.encryptionInfo).nonce)
        #expect(first.deviceRequest == second.deviceRequest)
    }

    @Test("Signed, version 1.1: one readerAuthAll over ReaderAuthenticationAll of this session's transcript")
    func signedAll() throws {
        let (root, identity) = try AnnexCFixtures.readerPKI()
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy, reader: identity)
        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(request.deviceRequest)))
        #expect(deviceRequest.version == "1.1" && deviceRequest.readerAuthAll.count == 1)
        #expect(deviceRequest.docRequests.allSatisfy { $0.readerAuth == nil })
        let toBeSigned = ReaderAuthentication.allBytes(transcript: request.session.transcript,
                                                       itemsRequestBytes: deviceRequest.docRequests.map(\.itemsRequestBytes),
                                                       deviceRequestInfoBytes: nil)
        let leaf = try ReaderAuthentication.verify(deviceRequest.readerAuthAll[0], readerAuthenticationBytes: toBeSigned,
                                                   trustStore: TrustStore(anchors: [root]), at: VectorFiles.date("2026-01-01T00:00:00Z"))
        #expect(leaf == identity.certificates[0])
    }

    @Test("Signed, version 1.0: a readerAuth per DocRequest over its ReaderAuthentication")
    func signedPerDocument() throws {
        let (root, identity) = try AnnexCFixtures.readerPKI()
        var policy = AnnexCFixtures.policy
        policy.documents.append(.init(docType: "org.iso.23220.photoid.1", nameSpaces: ["org.iso.23220.1": ["family_name": false]]))
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: policy, reader: identity, version: .v1_0)
        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(request.deviceRequest)))
        #expect(deviceRequest.version == "1.0" && deviceRequest.readerAuthAll.isEmpty && deviceRequest.docRequests.count == 2)
        for doc in deviceRequest.docRequests {
            let readerAuth = try #require(doc.readerAuth)
            let toBeSigned = ReaderAuthentication.bytes(transcript: request.session.transcript, itemsRequestBytes: doc.itemsRequestBytes)
            _ = try ReaderAuthentication.verify(readerAuth, readerAuthenticationBytes: toBeSigned, trustStore: TrustStore(anchors: [root]),
                                                at: VectorFiles.date("2026-01-01T00:00:00Z"))
            // Signed for this session only: another origin gives another transcript.
            let elsewhere = ReaderAuthentication.bytes(transcript: .annexC(encryptionInfo: request.encryptionInfo, origin: "https://shop.exampla"),
                                                       itemsRequestBytes: doc.itemsRequestBytes)
            #expect(throws: VerificationError.self) {
                try ReaderAuthentication.verify(readerAuth, readerAuthenticationBytes: elsewhere, trustStore: TrustStore(anchors: [root]),
                                                at: VectorFiles.date("2026-01-01T00:00:00Z"))
            }
        }
    }

    @Test("Origins that are not serialized web origins are input.malformed",
          arguments: ["https://shop.example/", "shop.example", "https://shop.example:443", "http://localhost:80", "https://Shop.example",
                      "https://shop.example/path", "https://shop.example?x", "ftp://shop.example", "https://", "https://shop.example:",
                      "https://shop.example:08443", "https://user@shop.example", "https://[::1", "https://shop example"])
    func badOrigins(origin: String) {
        #expect(throws: VerificationError.self) { try AnnexCWebRequest.create(origin: origin, request: AnnexCFixtures.policy) }
    }

    @Test("Origins that are accepted", arguments: ["https://shop.example", "http://localhost:8080", "https://[::1]:8443", "https://xn--bcher-kva.example"])
    func goodOrigins(origin: String) throws {
        _ = try AnnexCWebRequest.create(origin: origin, request: AnnexCFixtures.policy)
    }

    @Test("An empty request is input.malformed")
    func emptyRequest() {
        #expect(throws: VerificationError.self) { try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: RequestPolicy(documents: [])) }
        let noElements = RequestPolicy(documents: [.init(docType: AnnexCFixtures.mDL, nameSpaces: [:])])
        #expect(throws: VerificationError.self) { try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: noElements) }
    }

    static func appleSample() throws -> (deviceRequest: String, encryptionInfo: String) {
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(VectorFiles.text("TestVectors/apple/web-annex-c/apple_doc_sample_request.json").utf8)) as? [String: String])
        return (try #require(json["deviceRequest"]), try #require(json["encryptionInfo"]))
    }

    @Test("Apple's sample request: DeviceRequest 1.1 with readerAuthAll and deviceRequestInfo parses and re-encodes byte for byte")
    func appleDeviceRequest() throws {
        let bytes = try #require(Base64URL.decode(try Self.appleSample().deviceRequest))
        let request = try DeviceRequest(decoding: bytes)
        #expect(request.version == "1.1")
        #expect(request.encoded == bytes)
        let items = try #require(request.docRequests.first?.itemsRequest)
        #expect(request.docRequests.count == 1)
        #expect(items.docType == "org.iso.18013.5.1.mDL")
        #expect(items.nameSpaces == [.init("org.iso.18013.5.1", elements: [
            .init("portrait", intentToRetain: true), .init("given_name", intentToRetain: true),
            .init("age_over_21", intentToRetain: false), .init("family_name", intentToRetain: true),
        ])])
        // Re-encoding the parsed ItemsRequest reproduces Apple's ItemsRequestBytes.
        #expect(items.taggedBytes == request.docRequests[0].itemsRequestBytes)
        // readerAuthAll: one COSE_Sign1, protected {1: -7}, x5chain one certificate, detached payload.
        #expect(request.readerAuthAll.count == 1)
        let readerAuth = try #require(try CBORDecoder.decode(request.readerAuthAll[0]).array)
        #expect(readerAuth.count == 4 && readerAuth[2].isNull && readerAuth[3].bytes?.count == 64)
        let protected: [UInt8]? = readerAuth[0].bytes.map(Array.init)
        #expect(protected == [0xa1, 0x01, 0x26])
        let certificate = try Certificate(derEncoded: try #require(readerAuth[1][intKey: 33]?.bytes))
        #expect(certificate.subject.commonName == "Test Request Authentication CA")
        // deviceRequestInfo: #6.24({"useCases": [{"mandatory": true, "documentSets": [[0]]}]}).
        let info = try #require(request.deviceRequestInfoBytes)
        let decoded = try CBORDecoder.decode(info).decodeEmbedded().item
        #expect(decoded["useCases"]?.array?.first?["mandatory"]?.bool == true)
    }

    @Test("Apple's sample EncryptionInfo parses: 32-byte nonce, P-256 COSE_Key; our encoder reproduces the exact string")
    func appleEncryptionInfo() throws {
        let text = try Self.appleSample().encryptionInfo
        let info = try AnnexCEncryptionInfo(base64URL: text)
        #expect(info.nonce.count == 32)
        #expect(info.recipientPublicKey.curve == .p256)
        #expect(AnnexCEncryptionInfo(nonce: info.nonce, recipientPublicKey: info.recipientPublicKey).base64URL == text)
    }

    @Test("Malformed EncryptionInfo text is input.malformed", arguments: [
        "", "not base64!", "gmVkY2Fwaa", Base64URL.encode(CBOREncoder.encode(.array([.text("dcapi"), .map([])]))),
        Base64URL.encode(CBOREncoder.encode(.array([.text("other"), .map([(.text("nonce"), .bytes([1]))])]))),
    ])
    func malformedEncryptionInfo(text: String) {
        #expect(throws: VerificationError.self) { try AnnexCEncryptionInfo(base64URL: text) }
    }
}
