import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Every error code that applies to the Apple format, produced from Apple's sample: envelope faults
/// directly, mdoc faults by modifying the decrypted plaintext and re-encrypting it to the sample key.
@Suite("Apple Verify with Wallet: rejections")
struct AppleRejectionTests {
    typealias F = AppleFixtures

    static func codes(_ report: VerificationReport) -> Set<ErrorCode> { Set(report.errors.map(\.code)) }

    static func verify(_ envelope: [UInt8]) throws -> VerificationReport {
        try F.verifier().verify(encryptedData: envelope, session: F.session, at: AppleSampleVector.validTime)
    }

    @Test("re-encrypting the unmodified plaintext verifies (the harness itself is sound)")
    func reencryptedSampleVerifies() throws {
        let report = try F.verifyModified(AppleSampleVector.plaintext)
        #expect(report.verified, "\(report.errors)")
    }

    // MARK: Envelope

    @Test("input.malformed: not CBOR, truncated, wrong shape, wrong lengths")
    func malformedInput() throws {
        let sample = AppleSampleVector.envelope
        for bytes in [[UInt8](), [0xFF, 0x00], Array(sample.dropLast(100)), sample + [0x00],
                      CBOREncoder.encode(.array([.text("APPLE-HPKE-v1")])),
                      CBOREncoder.encode(.map([(.text("algorithm"), .text("APPLE-HPKE-v1"))]))] {
            let report = try Self.verify(bytes)
            #expect(report.errors.map(\.code) == [.inputMalformed])
        }
        let shortHash = try CBORSurgery.rebuild(sample, at: [.key("params"), .key("pkRHash")]) { _ in .bytes([1, 2, 3]) }
        #expect(try Self.verify(shortHash).errors.map(\.code) == [.inputMalformed])
        let shortKey = try CBORSurgery.rebuild(sample, at: [.key("params"), .key("pkEm")]) { _ in .bytes([4] + [UInt8](repeating: 1, count: 32)) }
        #expect(try Self.verify(shortKey).errors.map(\.code) == [.inputMalformed])
    }

    @Test("envelope.unsupported: another algorithm or mode")
    func unsupported() throws {
        let plaintext = AppleSampleVector.plaintext
        #expect(try Self.verify(F.envelope(plaintext: plaintext, algorithm: "APPLE-HPKE-v2")).errors.map(\.code) == [.envelopeUnsupported])
        #expect(try Self.verify(F.envelope(plaintext: plaintext, mode: 1)).errors.map(\.code) == [.envelopeUnsupported])
        // Any mode but 0, negative included, is unsupported (not malformed).
        for mode: Int64 in [-1, -100, 2, Int64.max] {
            let edited = try CBORSurgery.rebuild(AppleSampleVector.envelope, at: [.key("params"), .key("mode")]) { _ in .int(mode) }
            #expect(try Self.verify(edited).errors.map(\.code) == [.envelopeUnsupported], "mode \(mode)")
        }
    }

    @Test("envelope.recipient_mismatch: encrypted to a key we do not hold")
    func recipientMismatch() throws {
        let other = try PrivateKey.generate(.p256)
        let envelope = try F.envelope(plaintext: AppleSampleVector.plaintext, recipient: other.publicKey)
        #expect(try Self.verify(envelope).errors.map(\.code) == [.envelopeRecipientMismatch])
        // With that key configured too (rotation), the same envelope gets past the recipient check.
        let rotated = try F.verifier(keys: [AppleSampleVector.merchantKey(), other])
        let report = rotated.verify(encryptedData: envelope, session: F.session, at: AppleSampleVector.validTime)
        #expect(report.checks.contains { $0.id == .envelopeRecipient && $0.status == .pass })
    }

    @Test("envelope.transcript_mismatch: an infoHash that is not SHA-256 of our transcript")
    func wrongInfoHash() throws {
        let envelope = try F.envelope(plaintext: AppleSampleVector.plaintext, infoHash: [UInt8](repeating: 0, count: 32))
        #expect(try Self.verify(envelope).errors.map(\.code) == [.envelopeTranscriptMismatch])
    }

    @Test("hpke.open_failed: corrupted ciphertext, or sealed with another info")
    func openFails() throws {
        var corrupted = AppleSampleVector.envelope
        corrupted[corrupted.count - 1] ^= 0x01
        #expect(try Self.verify(corrupted).errors.map(\.code) == [.hpkeOpenFailed])
        var otherInfo = AppleSampleVector.transcript
        otherInfo[otherInfo.count - 1] ^= 0x01
        // infoHash announces our transcript, but the ciphertext was sealed with another info.
        let envelope = try F.envelope(plaintext: AppleSampleVector.plaintext, transcript: otherInfo, infoHash: AppleSampleVector.infoHash)
        #expect(try Self.verify(envelope).errors.map(\.code) == [.hpkeOpenFailed])
    }

    // MARK: Plaintext and DeviceResponse

    @Test("response.malformed: plaintext not CBOR, no identity, bad version")
    func responseMalformed() throws {
        #expect(try F.verifyModified([0xFF]).errors.map(\.code) == [.responseMalformed])
        let noIdentity = F.replacing(F.utf8("identity"), with: F.utf8("identitX"), in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(noIdentity).errors.map(\.code) == [.responseMalformed])
        let version = F.replacing(F.utf8("version") + [0x63] + F.utf8("1.0"), with: F.utf8("version") + [0x63] + F.utf8("2.0"),
                                  in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(version).errors.map(\.code) == [.responseMalformed])
    }

    @Test("response.status: a non-zero status")
    func responseStatus() throws {
        let bytes = F.replacing(F.utf8("status") + [0x00], with: F.utf8("status") + [0x0a], in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(bytes).errors.map(\.code) == [.responseStatus])
    }

    @Test("digest.mismatch: a tampered element value")
    func digestMismatch() throws {
        let bytes = F.replacing(F.utf8("Jane"), with: F.utf8("Jbne"), in: AppleSampleVector.plaintext)
        let report = try F.verifyModified(bytes)
        #expect(report.errors.map(\.code) == [.digestMismatch])
        #expect(report.documents.isEmpty)
        #expect(!report.json.serialized().contains("Jbne"))
    }

    @Test("digest.missing: an item whose digestID is not in the MSO")
    func digestMissing() throws {
        let bytes = F.replacing(F.utf8("digestID") + [0x00], with: F.utf8("digestID") + [0x17], in: AppleSampleVector.plaintext)
        #expect(Self.codes(try F.verifyModified(bytes)) == [.digestMissing])
    }

    @Test("digest.duplicate: the same IssuerSignedItem twice")
    func digestDuplicate() throws {
        let bytes = try CBORSurgery.rebuild(AppleSampleVector.plaintext,
                                            at: CBORSurgery.document + [.key("issuerSigned"), .key("nameSpaces"), .key("org.iso.18013.5.1")]) { items in
            let array = items.array.map(Array.init) ?? []
            return .array(array.map(\.asValue) + [array[0].asValue])
        }
        #expect(Self.codes(try F.verifyModified(bytes)) == [.digestDuplicate])
    }

    @Test("issuer.signature_invalid: one flipped bit of the issuerAuth signature")
    func issuerSignature() throws {
        let signature = try #require(Hex.decode(VectorFiles.field(AppleSampleVector.folder + "issuer_signature_validation.txt", "Signature:")))
        var flipped = signature
        flipped[0] ^= 0x01
        let bytes = F.replacing(signature, with: flipped, in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(bytes).errors.map(\.code) == [.issuerSignatureInvalid])
    }

    @Test("issuer.algorithm_unsupported: alg EdDSA with a P-256 document signer, or an unknown alg")
    func issuerAlgorithm() throws {
        let eddsa = F.replacing([0x43, 0xa1, 0x01, 0x26], with: [0x43, 0xa1, 0x01, 0x27], in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(eddsa).errors.map(\.code) == [.issuerAlgorithmUnsupported])
        let unknown = F.replacing([0x43, 0xa1, 0x01, 0x26], with: [0x43, 0xa1, 0x01, 0x2f], in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(unknown).errors.map(\.code) == [.issuerAlgorithmUnsupported])
    }

    @Test("mso.doctype_mismatch: the document claims another docType")
    func docTypeMismatch() throws {
        let bytes = try CBORSurgery.rebuild(AppleSampleVector.plaintext, at: CBORSurgery.document + [.key("docType")]) { _ in
            .text("org.iso.18013.5.1.mDM")
        }
        let codes = Self.codes(try F.verifyModified(bytes))
        #expect(codes.contains(.msoDocTypeMismatch))
        // The device signed the real docType inside DeviceAuthentication, so that fails too.
        #expect(codes == [.msoDocTypeMismatch, .deviceSignatureInvalid])
    }

    @Test("mso.digest_algorithm_unsupported and mso.malformed (the issuer signature then fails too)")
    func msoFaults() throws {
        let algorithm = F.replacing(F.utf8("SHA-256"), with: F.utf8("SHA-257"), in: AppleSampleVector.plaintext)
        #expect(Self.codes(try F.verifyModified(algorithm)) == [.msoDigestAlgorithmUnsupported, .issuerSignatureInvalid])
        let validity = F.replacing(F.utf8("validityInfo"), with: F.utf8("validityInfX"), in: AppleSampleVector.plaintext)
        #expect(Self.codes(try F.verifyModified(validity)) == [.msoMalformed, .issuerSignatureInvalid])
    }

    @Test("device.signature_invalid: a flipped device signature, or a signature over another transcript")
    func deviceSignature() throws {
        let signature = try #require(Hex.decode(VectorFiles.field(AppleSampleVector.folder + "device_signature_validation.txt", "signature")))
        var flipped = signature
        flipped[10] ^= 0x80
        let bytes = F.replacing(signature, with: flipped, in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(bytes).errors.map(\.code) == [.deviceSignatureInvalid])
        let protectedAlg = F.replacing([0x43, 0xa1, 0x01, 0x26], with: [0x43, 0xa1, 0x01, 0x27], in: AppleSampleVector.plaintext, occurrence: 1)
        #expect(try F.verifyModified(protectedAlg).errors.map(\.code) == [.deviceSignatureInvalid])
    }

    @Test("device.auth_missing: neither deviceSignature nor deviceMac")
    func deviceAuthMissing() throws {
        let bytes = F.replacing(F.utf8("deviceSignature"), with: F.utf8("deviceSignaturX"), in: AppleSampleVector.plaintext)
        #expect(try F.verifyModified(bytes).errors.map(\.code) == [.deviceAuthMissing])
    }

    @Test("response.malformed: x5chain with an unparseable certificate after the leaf, the leaf repeated, or 2,000 copies")
    func x5chainShape() throws {
        let x5chain = CBORSurgery.document + [.key("issuerSigned"), .key("issuerAuth"), .index(1), .intKey(33)]
        func verify(_ change: (CBORItem) -> CBORValue) throws -> VerificationReport {
            try F.verifyModified(try CBORSurgery.rebuild(AppleSampleVector.plaintext, at: x5chain, change))
        }
        let garbage = try verify { leaf in .array([leaf.asValue, .bytes([0x30, 0x03, 0x02, 0x01, 0x01])]) }
        #expect(garbage.errors.map(\.code) == [.responseMalformed])
        #expect(garbage.errors.first?.message.contains("x5chain[1] is not a DER X.509 certificate") == true)
        let repeated = try verify { leaf in .array([leaf.asValue, leaf.asValue]) }
        #expect(repeated.errors.map(\.code) == [.responseMalformed])
        let many = try verify { leaf in .array(Array(repeating: leaf.asValue, count: 2000)) }
        #expect(many.errors.map(\.code) == [.responseMalformed])
        #expect(many.errors.first?.message.contains("2000 certificates; at most 8") == true)
    }

    @Test("response.malformed: a namespace with an empty IssuerSignedItem array")
    func emptyNameSpace() throws {
        let bytes = try CBORSurgery.rebuild(AppleSampleVector.plaintext,
                                            at: CBORSurgery.document + [.key("issuerSigned"), .key("nameSpaces")]) { _ in
            .map([(.text("org.iso.18013.5.1"), .array([]))])
        }
        let report = try F.verifyModified(bytes)
        #expect(report.errors.map(\.code) == [.responseMalformed])
        #expect(report.errors.first?.message.contains("empty array") == true)
    }

    @Test("response.malformed: a deviceAuth with both deviceSignature and deviceMac")
    func bothDeviceSignatureAndMac() throws {
        let bytes = try CBORSurgery.rebuild(AppleSampleVector.plaintext,
                                            at: CBORSurgery.document + [.key("deviceSigned"), .key("deviceAuth")]) { auth in
            let signature = auth["deviceSignature"]?.asValue ?? .null
            return .map([(.text("deviceSignature"), signature), (.text("deviceMac"), signature)])
        }
        let report = try F.verifyModified(bytes)
        #expect(report.errors.map(\.code) == [.responseMalformed])
        #expect(report.errors.first?.message.contains("both deviceSignature and deviceMac") == true)
    }

    @Test("device.key_unauthorized: a device-signed element the MSO does not authorize")
    func deviceKeyUnauthorized() throws {
        let bytes = try CBORSurgery.rebuild(AppleSampleVector.plaintext,
                                            at: CBORSurgery.document + [.key("deviceSigned"), .key("nameSpaces")]) { _ in
            .tagged(24, .bytes(CBOREncoder.encode(.map([(.text("org.iso.18013.5.1"), .map([(.text("age_over_18"), .bool(true))]))]))))
        }
        let codes = Self.codes(try F.verifyModified(bytes))
        // The sample's device signature covers the original DeviceNameSpacesBytes, so it fails as well.
        #expect(codes == [.deviceKeyUnauthorized, .deviceSignatureInvalid])
    }
}
