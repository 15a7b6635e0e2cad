import TestSupport
import CryptoCore
import HPKE
import Testing

/// Apple's signed "Verify with Wallet" sample (TestVectors/apple/in-app-sample): APPLE-HPKE-v1 =
/// RFC 9180 base mode, P-256 / HKDF-SHA256 / AES-128-GCM, info = CBOR SessionTranscript, empty aad.
struct AppleSample {
    let recipientKey: PrivateKey
    let envelope: [UInt8]
    let enc: [UInt8]
    let ciphertext: ArraySlice<UInt8>
    let info: [UInt8]
    let plaintext: [UInt8]

    init() throws {
        recipientKey = try PrivateKey(pemEncoded: vectorText("apple/in-app-sample/merchant_encryption.key"))
        envelope = hex(try vectorText("apple/in-app-sample/hpke_envelope.cbor.hex"))
        // Fixed layout of the sample envelope (docs/formats.md §1.1): 64 "pkEm" 58 41 <65 bytes> … 64 "data" 59 18 14 <6164 bytes>.
        let pkEmStart = try #require(indexAfter([0x64] + Array("pkEm".utf8) + [0x58, 0x41], in: envelope))
        enc = Array(envelope[pkEmStart..<(pkEmStart + 65)])
        let dataStart = try #require(indexAfter([0x64] + Array("data".utf8) + [0x59, 0x18, 0x14], in: envelope))
        ciphertext = envelope[dataStart..<(dataStart + 0x1814)]
        try #require(dataStart + 0x1814 == envelope.count)
        info = hex(try vectorText("apple/in-app-sample/session_transcript.txt"))
        plaintext = hex(try vectorText("apple/in-app-sample/plaintext_topics.cbor.hex"))
    }
}

@Suite("Apple Verify with Wallet sample")
struct AppleSampleTests {
    @Test("pkRHash, infoHash and enc match the envelope")
    func hashes() throws {
        let sample = try AppleSample()
        let pkRHash = Digest.hash(.sha256, sample.recipientKey.publicKey.uncompressedPoint)
        #expect(pkRHash == hex("b2c00f06b2df645691174f1331ade35141f17e19b3021d07560b4a71fc61818c"))
        #expect(indexAfter([0x67] + Array("pkRHash".utf8) + [0x58, 0x20] + pkRHash, in: sample.envelope) != nil)
        let infoHash = Digest.hash(.sha256, sample.info)
        #expect(infoHash == hex(try vectorText("apple/in-app-sample/info_hash.txt")))
        #expect(indexAfter([0x68] + Array("infoHash".utf8) + [0x58, 0x20] + infoHash, in: sample.envelope) != nil)
        #expect(sample.enc == hex(try vectorText("apple/in-app-sample/pkem.txt")))
    }

    @Test("Single-shot open gives the plaintext byte for byte")
    func open() throws {
        let sample = try AppleSample()
        let plaintext = try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: sample.recipientKey,
                                      encapsulatedKey: sample.enc, ciphertext: sample.ciphertext, info: sample.info)
        #expect(plaintext.count == 6148)
        #expect(plaintext == sample.plaintext)

        // The context API agrees; a second open at sequence number 1 fails.
        let context = try HPKE.RecipientContext(suite: .p256SHA256AES128GCM, recipientKey: sample.recipientKey,
                                                encapsulatedKey: sample.enc, info: sample.info)
        #expect(try context.open(sample.ciphertext, aad: [UInt8]()) == sample.plaintext)
        #expect(throws: HPKEError.self) { try context.open(sample.ciphertext, aad: [UInt8]()) }
    }

    @Test("Tampering with enc, ciphertext, tag, info or aad fails with the right error")
    func tampering() throws {
        let sample = try AppleSample()
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        func open(enc: [UInt8]? = nil, ciphertext: [UInt8]? = nil, info: [UInt8]? = nil, aad: [UInt8] = [],
                  key: PrivateKey? = nil) -> HPKEError.Kind? {
            do {
                _ = try HPKE.open(suite: suite, recipientKey: key ?? sample.recipientKey,
                                  encapsulatedKey: enc ?? sample.enc, ciphertext: ciphertext ?? Array(sample.ciphertext),
                                  info: info ?? sample.info, aad: aad)
                return nil
            } catch let error as HPKEError {
                return error.kind
            } catch {
                return .internalFailure
            }
        }
        #expect(open() == nil)

        // enc: every flipped byte takes the point off the curve (or breaks the 0x04 prefix).
        for index in [0, 1, 32, 33, 64] {
            var enc = sample.enc
            enc[index] ^= 0x01
            #expect(open(enc: enc) == .invalidEncapsulatedKey, "enc byte \(index)")
        }
        #expect(open(enc: Array(sample.enc.dropLast())) == .invalidEncapsulatedKey)
        #expect(open(enc: sample.enc + [0]) == .invalidEncapsulatedKey)
        #expect(open(enc: [0x02] + sample.enc[1...32]) == .invalidEncapsulatedKey)
        #expect(open(enc: [0x04] + [UInt8](repeating: 0, count: 64)) == .invalidEncapsulatedKey)
        #expect(open(enc: []) == .invalidEncapsulatedKey)
        // A different valid point: decapsulates, but authentication fails.
        #expect(open(enc: try PrivateKey.generate(.p256).publicKey.uncompressedPoint) == .decryptionFailed)

        let ciphertext = Array(sample.ciphertext)
        for index in [0, 1000, ciphertext.count - 17, ciphertext.count - 16, ciphertext.count - 1] {
            var tampered = ciphertext
            tampered[index] ^= 0x01
            #expect(open(ciphertext: tampered) == .decryptionFailed, "ciphertext byte \(index)")
        }
        #expect(open(ciphertext: Array(ciphertext.dropLast())) == .decryptionFailed)
        #expect(open(ciphertext: Array(ciphertext.prefix(15))) == .decryptionFailed)

        for index in [0, sample.info.count / 2, sample.info.count - 1] {
            var info = sample.info
            info[index] ^= 0x01
            #expect(open(info: info) == .decryptionFailed, "info byte \(index)")
        }
        #expect(open(aad: [0]) == .decryptionFailed)
        #expect(open(key: try PrivateKey.generate(.p256)) == .decryptionFailed)
        #expect(open(key: try PrivateKey.generate(.p384)) == .invalidKey)
        #expect(open(key: try PrivateKey.generate(.x25519)) == .invalidKey)
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("One shared recipient key, many concurrent single-shot opens")
    func concurrentOpens() async throws {
        let sample = try AppleSample()
        let key = sample.recipientKey
        let enc = sample.enc
        let ciphertext = Array(sample.ciphertext)
        let info = sample.info
        let expected = Digest.hash(.sha256, sample.plaintext)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 {
                        let plaintext = try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: key,
                                                      encapsulatedKey: enc, ciphertext: ciphertext, info: info)
                        guard Digest.hash(.sha256, plaintext) == expected else { return false }
                    }
                    return true
                }
            }
            var all = [Bool]()
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results == [Bool](repeating: true, count: 8))
    }
}
