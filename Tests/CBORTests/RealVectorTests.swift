import TestSupport
import Foundation
import Testing
@testable import CBOR

/// Reads a vector from TestVectors/: lowercase hex, or for Apple's labelled files the hex that
/// ends the first line ("Data to sign <hex>").
func vector(_ path: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("TestVectors").appendingPathComponent(path), encoding: .utf8)
    let firstLine = text.split(whereSeparator: \.isNewline).first ?? ""
    return hex(firstLine.split(separator: " ").last.map(String.init) ?? "")
}

/// Real responses and COSE structures (ISO 18013-5 Annex D, Apple's Verify with Wallet sample).
@Suite("Real vectors")
struct RealVectorTests {
    static let cborFiles = [
        "iso18013-5/annex-d/device_response.hex",
        "iso18013-5/annex-d/device_request.hex",
        "iso18013-5/annex-d/device_engagement.hex",
        "iso18013-5/annex-d/device_authentication_bytes.hex",
        "iso18013-5/annex-d/e_device_key_bytes.hex",
        "iso18013-5/annex-d/items_request.hex",
        "iso18013-5/annex-d/reader_auth.hex",
        "iso18013-5/annex-d/reader_authentication_bytes.hex",
        "iso18013-5/annex-d/session_data.hex",
        "iso18013-5/annex-d/session_establishment.hex",
        "iso18013-5/annex-d/session_termination.hex",
        "iso18013-5/annex-d/session_transcript_bytes.hex",
        "iso18013-5/annex-d/eudi-ios-D5/d52_issuerAuthCBOR.hex",
        "iso18013-5/annex-d/eudi-ios-D5/d52_sigStructure.hex",
        "iso18013-5/annex-d/eudi-ios-D5/d53_deviceAuthMacStructure.hex",
        "iso18013-5/annex-d/eudi-ios-D5/d54_ReaderSigStructure.hex",
        "apple/in-app-sample/hpke_envelope.cbor.hex",
        "apple/in-app-sample/plaintext_topics.cbor.hex",
        "apple/in-app-sample/session_transcript.txt",
        "apple/in-app-sample/device_public_key.hex",
        "apple/in-app-sample/issuer_signature_validation.txt",
        "apple/in-app-sample/device_signature_validation.txt",
    ]

    @Test("decodes and re-encodes byte-exactly", arguments: cborFiles)
    func decodesAndReencodes(_ path: String) throws {
        let bytes = try vector(path)
        let item = try CBORDecoder.decode(bytes)
        #expect(item.byteRange == 0..<bytes.count)
        #expect(CBOREncoder.encode(item.toValue()) == bytes)  // these vectors use preferred serialization
        #expect(!item.diagnostic().isEmpty)
    }

    /// Walks a DeviceResponse the way the verifier will: every IssuerSignedItemBytes decodes,
    /// its tagged bytes are a slice of the response, and each digestID is in the MSO.
    private func checkDeviceResponse(_ response: CBORItem, in bytes: [UInt8], expectedItems: Int) throws {
        #expect(response["version"]?.text == "1.0")
        #expect(response["status"]?.uint == 0)
        let document = try #require(response["documents"]?.array?.first)
        let docType = try #require(document["docType"]?.text)
        let issuerSigned = try #require(document["issuerSigned"])

        // issuerAuth = COSE_Sign1 [protected, unprotected, payload, signature]; payload = MSO bytes (tag 24).
        let issuerAuth = try #require(issuerSigned["issuerAuth"]?.array)
        #expect(issuerAuth.count == 4)
        let protected = try CBORDecoder.decode(try #require(issuerAuth[0].bytes))
        #expect(protected[intKey: 1]?.int == -7)  // ES256
        let payload = try #require(issuerAuth[2].bytes)
        let mso = try CBORDecoder.decode(payload).decodeEmbedded()
        #expect(mso.item["docType"]?.text == docType)
        #expect(mso.item.byteRange.lowerBound > payload.startIndex)  // offsets in the response buffer
        let valueDigests = try #require(mso.item["valueDigests"]?.map)

        var count = 0
        for namespace in try #require(issuerSigned["nameSpaces"]?.map) {
            let name = try #require(namespace.key.text)
            let digests = try #require(valueDigests.first { $0.key.text == name }?.value.map)
            let digestIDs = Set(digests.compactMap(\.key.uint))
            for itemBytes in try #require(namespace.value.array) {
                let embedded = try itemBytes.decodeEmbedded()
                #expect(Array(embedded.tagged.prefix(2)) == [0xD8, 0x18])
                #expect(Array(bytes[embedded.tagged.indices]) == Array(embedded.tagged))
                #expect(embedded.item.byteRange.upperBound == embedded.tagged.endIndex)  // the item fills the byte string
                let id = try #require(embedded.item["digestID"]?.uint)
                #expect(digestIDs.contains(id))
                #expect(embedded.item["elementIdentifier"]?.text != nil)
                #expect((embedded.item["random"]?.bytes?.count ?? 0) >= 16)
                count += 1
            }
        }
        #expect(count == expectedItems)
    }

    @Test func annexDDeviceResponse() throws {
        let bytes = try vector("iso18013-5/annex-d/device_response.hex")
        try checkDeviceResponse(try CBORDecoder.decode(bytes), in: bytes, expectedItems: 6)
    }

    @Test func appleSampleResponse() throws {
        // Apple's plaintext is {"identity": DeviceResponse}.
        let bytes = try vector("apple/in-app-sample/plaintext_topics.cbor.hex")
        let response = try #require(try CBORDecoder.decode(bytes)["identity"])
        try checkDeviceResponse(response, in: bytes, expectedItems: 22)
    }

    @Test func sessionTranscriptBytesIsEmbedded() throws {
        let bytes = try vector("iso18013-5/annex-d/session_transcript_bytes.hex")
        let embedded = try CBORDecoder.decode(bytes).decodeEmbedded()
        #expect(embedded.tagged.indices == bytes.indices)
        #expect(embedded.item.array?.count == 3)
        // Re-wrapping the decoded transcript reproduces the received bytes.
        #expect(CBOREncoder.encode(.embedded(embedded.item.asValue)) == bytes)
    }

    @Test func appleDeviceSigStructureRebuilds() throws {
        // ["Signature1", protected, external_aad, payload] built by the encoder equals Apple's bytes.
        let expected = try vector("apple/in-app-sample/device_signature_validation.txt")
        let received = try #require(try CBORDecoder.decode(expected).array)
        let payload = try #require(received[3].bytes)
        let built = CBOREncoder.encode(.array([
            .text("Signature1"), .bytes(hex("a10126")), .bytes([]), .bytes(Array(payload)),
        ]))
        #expect(built == expected)
    }
}
