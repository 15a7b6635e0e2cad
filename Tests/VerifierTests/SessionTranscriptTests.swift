import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

@Suite("Session transcripts and DeviceAuthenticationBytes")
struct SessionTranscriptTests {
    @Test("Apple in-app transcript equals Apple's sample byte for byte, and its hash is the sample infoHash")
    func appleTranscript() throws {
        let key = try AppleSampleVector.merchantKey()
        let pkRHash = Digest.hash(.sha256, key.publicKey.uncompressedPoint)
        #expect(Hex.encode(pkRHash) == "b2c00f06b2df645691174f1331ade35141f17e19b3021d07560b4a71fc61818c")
        let transcript = SessionTranscript.appleInApp(
            nonce: AppleSampleVector.nonce, merchantID: AppleSampleVector.merchantID,
            teamID: AppleSampleVector.teamID, recipientKeyHash: pkRHash)
        #expect(transcript.bytes == AppleSampleVector.transcript)
        #expect(transcript.bytes.count == 200)
        #expect(Digest.hash(.sha256, transcript.bytes) == AppleSampleVector.infoHash)
    }

    @Test("DeviceAuthenticationBytes for Apple's sample equal the payload inside Apple's device Sig_structure")
    func appleDeviceAuthentication() throws {
        let toBeSigned = try #require(Hex.decode(VectorFiles.field(AppleSampleVector.folder + "device_signature_validation.txt", "Data to sign")))
        let transcript = try SessionTranscript(encoded: AppleSampleVector.transcript)
        let bytes = DeviceAuthenticationBytes.build(
            transcript: transcript, docType: "org.iso.18013.5.1.mDL", deviceNameSpacesBytes: [0xd8, 0x18, 0x41, 0xa0][...])
        // Sig_structure = ["Signature1", h'a10126', h'', bstr(DeviceAuthenticationBytes)]
        let decoded = try CBORDecoder.decode(toBeSigned)
        let parts = try #require(decoded.array)
        #expect(parts.count == 4)
        #expect(parts[0].text == "Signature1")
        #expect(parts[3].bytes.map(Array.init) == bytes)
    }

    @Test("Annex D: the tagged SessionTranscriptBytes round-trip and DeviceAuthenticationBytes match the vector")
    func annexDDeviceAuthentication() throws {
        let transcript = try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes)
        #expect(transcript.taggedBytes == AnnexDVector.sessionTranscriptBytes)
        let bytes = DeviceAuthenticationBytes.build(
            transcript: transcript, docType: "org.iso.18013.5.1.mDL", deviceNameSpacesBytes: [0xd8, 0x18, 0x41, 0xa0][...])
        #expect(bytes == AnnexDVector.deviceAuthenticationBytes)
        #expect(Hex.encode(Digest.hash(.sha256, bytes)) == "8771204241dcefd65e8ac842589cb49cc4413cada7f7c6540b75ce3df0a6bc1e")
    }

    @Test("Annex C transcript: [null, null, [\"dcapi\", SHA-256(cbor([encryptionInfo, origin]))]]")
    func annexCTranscript() throws {
        let transcript = SessionTranscript.annexC(encryptionInfo: "abc", origin: "https://shop.example")
        let info = CBOREncoder.encode(.array([.text("abc"), .text("https://shop.example")]))
        #expect(info == [0x82, 0x63, 0x61, 0x62, 0x63, 0x74] + Array("https://shop.example".utf8))
        let expected: [UInt8] = [0x83, 0xf6, 0xf6, 0x82, 0x65] + Array("dcapi".utf8) + [0x58, 0x20] + Digest.hash(.sha256, info)
        #expect(transcript.bytes == expected)
        // One character of the origin changes the transcript.
        #expect(SessionTranscript.annexC(encryptionInfo: "abc", origin: "https://shop.exampla").bytes != transcript.bytes)
    }

    @Test("A caller's transcript must be a 3-element array, tagged or not")
    func rejectsMalformedTranscript() {
        #expect(throws: VerificationError.self) { try SessionTranscript(encoded: [0x82, 0xf6, 0xf6]) }
        #expect(throws: VerificationError.self) { try SessionTranscript(encoded: [0xff]) }
    }
}
