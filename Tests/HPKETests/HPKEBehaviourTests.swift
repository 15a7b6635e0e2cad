import TestSupport
import CryptoCore
import HPKE
import Testing

struct SuiteAndMode: Sendable, CustomTestStringConvertible {
    let suite: HPKE.Ciphersuite
    let mode: HPKE.Mode
    var testDescription: String { "\(suite) mode \(mode.rawValue)" }

    static let all: [SuiteAndMode] = HPKE.KEM.allCases.flatMap { kem in
        HPKE.KDF.allCases.flatMap { kdf in
            HPKE.AEAD.allCases.flatMap { aead in
                HPKE.Mode.allCases.map { SuiteAndMode(suite: HPKE.Ciphersuite(kem: kem, kdf: kdf, aead: aead), mode: $0) }
            }
        }
    }
}

func kind(_ body: () throws -> Void) -> HPKEError.Kind? {
    do {
        try body()
        return nil
    } catch let error as HPKEError {
        return error.kind
    } catch {
        return .internalFailure
    }
}

@Suite("HPKE behaviour")
struct HPKEBehaviourTests {
    /// Every suite (including P-384, which has no official vectors) in every mode with random keys.
    @Test("Round trip: seal/open several messages and export", arguments: SuiteAndMode.all)
    func roundTrip(_ testCase: SuiteAndMode) throws {
        let suite = testCase.suite
        let curve = suite.kem.curve
        let recipient = try PrivateKey.generate(curve)
        let sender = testCase.mode == .auth || testCase.mode == .authPSK ? try PrivateKey.generate(curve) : nil
        let psk = testCase.mode == .psk || testCase.mode == .authPSK
            ? HPKE.PSK(key: SecureRandom.bytes(32), id: Array("psk id".utf8)) : nil
        let info: [UInt8] = Array("round trip info".utf8)

        let senderContext = try HPKE.SenderContext(suite: suite, recipientKey: recipient.publicKey, info: info,
                                                   psk: psk, senderKey: sender)
        #expect(senderContext.mode == testCase.mode)
        #expect(senderContext.encapsulatedKey.count == suite.kem.encapsulatedKeyByteCount)
        let recipientContext = try HPKE.RecipientContext(suite: suite, recipientKey: recipient,
                                                         encapsulatedKey: senderContext.encapsulatedKey, info: info,
                                                         psk: psk, senderPublicKey: sender?.publicKey)
        if suite.aead == .exportOnly {
            #expect(kind { _ = try senderContext.seal([UInt8](), aad: [UInt8]()) } == .exportOnly)
            #expect(kind { _ = try recipientContext.open([UInt8](repeating: 0, count: 16), aad: [UInt8]()) } == .exportOnly)
        } else {
            for index in 0..<3 {
                let message: [UInt8] = Array("message \(index)".utf8)
                let aad: [UInt8] = [UInt8(index)]
                let ciphertext = try senderContext.seal(message, aad: aad)
                #expect(ciphertext.count == message.count + suite.aead.tagByteCount)
                #expect(try recipientContext.open(ciphertext, aad: aad) == message)
            }
            #expect(senderContext.sequenceNumber == 3 && recipientContext.sequenceNumber == 3)
        }
        let exported = try senderContext.exportSecret(context: Array("ctx".utf8), length: 42)
        #expect(exported.count == 42)
        #expect(try recipientContext.exportSecret(context: Array("ctx".utf8), length: 42) == exported)
        #expect(try recipientContext.exportSecret(context: Array("ctx2".utf8), length: 42) != exported)

        // The wrong PSK or sender key gives different keys.
        if let psk {
            let wrong = HPKE.PSK(key: SecureRandom.bytes(32), id: psk.id)
            let other = try HPKE.RecipientContext(suite: suite, recipientKey: recipient,
                                                  encapsulatedKey: senderContext.encapsulatedKey, info: info,
                                                  psk: wrong, senderPublicKey: sender?.publicKey)
            #expect(try other.exportSecret(context: Array("ctx".utf8), length: 42) != exported)
        }
        if sender != nil {
            let other = try HPKE.RecipientContext(suite: suite, recipientKey: recipient,
                                                  encapsulatedKey: senderContext.encapsulatedKey, info: info,
                                                  psk: psk, senderPublicKey: try PrivateKey.generate(curve).publicKey)
            #expect(try other.exportSecret(context: Array("ctx".utf8), length: 42) != exported)
        }
    }

    @Test("Single-shot seal/open", arguments: HPKE.KEM.allCases)
    func singleShot(kem: HPKE.KEM) throws {
        let suite = HPKE.Ciphersuite(kem: kem, kdf: .hkdfSHA256, aead: .aes128GCM)
        let recipient = try PrivateKey.generate(kem.curve)
        let plaintext: [UInt8] = Array("single shot".utf8)
        let info: [UInt8] = [1, 2, 3]
        let (enc, ciphertext) = try HPKE.seal(suite: suite, recipientKey: recipient.publicKey, info: info,
                                              plaintext: plaintext)
        #expect(try HPKE.open(suite: suite, recipientKey: recipient, encapsulatedKey: enc, ciphertext: ciphertext,
                              info: info) == plaintext)
        // Fresh ephemeral key per message.
        #expect(try HPKE.seal(suite: suite, recipientKey: recipient.publicKey, info: info, plaintext: plaintext)
            .encapsulatedKey != enc)
        #expect(kind {
            _ = try HPKE.open(suite: HPKE.Ciphersuite(kem: kem, kdf: .hkdfSHA256, aead: .exportOnly), recipientKey: recipient,
                              encapsulatedKey: enc, ciphertext: ciphertext, info: info)
        } == .exportOnly)
    }

    @Test("Sequence numbers: message limit, nonce per message, failed open does not advance")
    func sequence() throws {
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        let recipientKey = try PrivateKey.generate(.p256)
        let sender = try HPKE.SenderContext(suite: suite, recipientKey: recipientKey.publicKey, info: [UInt8]())
        let recipient = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey,
                                                  encapsulatedKey: sender.encapsulatedKey, info: [UInt8]())
        let first = try sender.seal([UInt8](repeating: 7, count: 8), aad: [UInt8]())
        let second = try sender.seal([UInt8](repeating: 7, count: 8), aad: [UInt8]())
        #expect(first != second)
        // Out of order: fails and leaves the sequence number alone.
        #expect(kind { _ = try recipient.open(second, aad: [UInt8]()) } == .decryptionFailed)
        #expect(recipient.sequenceNumber == 0)
        #expect(try recipient.open(first, aad: [UInt8]()) == [UInt8](repeating: 7, count: 8))
        #expect(try recipient.open(second, aad: [UInt8]()) == [UInt8](repeating: 7, count: 8))

        // Near the limit: one more message, then messageLimitReached on both sides.
        sender.sequenceNumber = UInt64.max - 1
        recipient.sequenceNumber = UInt64.max - 1
        let last = try sender.seal([UInt8](), aad: [UInt8]())
        #expect(try recipient.open(last, aad: [UInt8]()) == [])
        #expect(kind { _ = try sender.seal([UInt8](), aad: [UInt8]()) } == .messageLimitReached)
        #expect(kind { _ = try recipient.open(last, aad: [UInt8]()) } == .messageLimitReached)
        #expect(sender.sequenceNumber == UInt64.max)
        // Exports still work.
        #expect(try sender.exportSecret(context: [UInt8](), length: 32)
            == recipient.exportSecret(context: [UInt8](), length: 32))
    }

    @Test("The nonce is base_nonce XOR the big-endian sequence number")
    func nonce() throws {
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        let recipientKey = try PrivateKey.generate(.p256)
        let sender = try HPKE.SenderContext(suite: suite, recipientKey: recipientKey.publicKey, info: [UInt8]())
        let sequence: UInt64 = 0x0102_0304_0506_0708
        sender.sequenceNumber = sequence
        let ciphertext = try sender.seal([UInt8](repeating: 1, count: 4), aad: [UInt8]())
        var nonce = sender.baseNonce
        for index in 0..<8 { nonce[11 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index))) }
        #expect(try AEADAlgorithm.aes128GCM.open(key: sender.key, nonce: nonce, ciphertext: ciphertext, aad: [UInt8]())
            == [UInt8](repeating: 1, count: 4))
    }

    @Test("Export length bounds")
    func exportBounds() throws {
        let suite = HPKE.Ciphersuite(kem: .x25519HKDFSHA256, kdf: .hkdfSHA512, aead: .exportOnly)
        let recipientKey = try PrivateKey.generate(.x25519)
        let sender = try HPKE.SenderContext(suite: suite, recipientKey: recipientKey.publicKey, info: [UInt8]())
        #expect(try sender.exportSecret(context: [UInt8](), length: 255 * 64).count == 255 * 64)
        #expect(kind { _ = try sender.exportSecret(context: [UInt8](), length: 255 * 64 + 1) } == .invalidInput)
        #expect(kind { _ = try sender.exportSecret(context: [UInt8](), length: 0) } == .invalidInput)
    }

    @Test("PSK inputs must be consistent")
    func pskValidation() throws {
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        let recipientKey = try PrivateKey.generate(.p256)
        let good = HPKE.PSK(key: SecureRandom.bytes(32), id: [1])
        let enc = try HPKE.SenderContext(suite: suite, recipientKey: recipientKey.publicKey, info: [UInt8](), psk: good)
            .encapsulatedKey
        for bad in [HPKE.PSK(key: [], id: [1]), HPKE.PSK(key: SecureRandom.bytes(32), id: []),
                    HPKE.PSK(key: [], id: []), HPKE.PSK(key: SecureRandom.bytes(31), id: [1])] {
            #expect(kind {
                _ = try HPKE.SenderContext(suite: suite, recipientKey: recipientKey.publicKey, info: [UInt8](), psk: bad)
            } == .invalidPSK)
            #expect(kind {
                _ = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey, encapsulatedKey: enc,
                                              info: [UInt8](), psk: bad)
            } == .invalidPSK)
        }
    }

    @Test("Keys on the wrong curve are rejected")
    func wrongCurve() throws {
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        let p384 = try PrivateKey.generate(.p384)
        let p256 = try PrivateKey.generate(.p256)
        #expect(kind { _ = try HPKE.SenderContext(suite: suite, recipientKey: p384.publicKey, info: [UInt8]()) } == .invalidKey)
        #expect(kind {
            _ = try HPKE.SenderContext(suite: suite, recipientKey: p256.publicKey, info: [UInt8](), senderKey: p384)
        } == .invalidKey)
        let enc = try HPKE.SenderContext(suite: suite, recipientKey: p256.publicKey, info: [UInt8]()).encapsulatedKey
        #expect(kind {
            _ = try HPKE.RecipientContext(suite: suite, recipientKey: p256, encapsulatedKey: enc, info: [UInt8](),
                                          senderPublicKey: p384.publicKey)
        } == .invalidKey)
    }

    @Test("Invalid P-256 enc values are rejected before any key agreement")
    func invalidNISTEnc() throws {
        let suite = HPKE.Ciphersuite.p256SHA256AES128GCM
        let recipientKey = try PrivateKey.generate(.p256)
        let valid = try PrivateKey.generate(.p256).publicKey.uncompressedPoint
        var offCurve = valid
        offCurve[64] ^= 0x01
        let p384Point = try PrivateKey.generate(.p384).publicKey.uncompressedPoint
        for enc in [offCurve, [0x04] + [UInt8](repeating: 0, count: 64), [0x00], Array(valid.prefix(33)), p384Point,
                    [0x04] + [UInt8](repeating: 0xFF, count: 64)] {
            #expect(kind {
                _ = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey, encapsulatedKey: enc, info: [UInt8]())
            } == .invalidEncapsulatedKey)
        }
    }

    @Test("X25519: low-order enc and low-order recipient keys are rejected", arguments: [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    ])
    func x25519LowOrder(point: String) throws {
        let suite = HPKE.Ciphersuite(kem: .x25519HKDFSHA256, kdf: .hkdfSHA256, aead: .aes128GCM)
        let recipientKey = try PrivateKey.generate(.x25519)
        #expect(kind {
            _ = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey, encapsulatedKey: hex(point), info: [UInt8]())
        } == .invalidEncapsulatedKey)
        let lowOrder = try PublicKey(curve: .x25519, rawRepresentation: hex(point))
        #expect(kind { _ = try HPKE.SenderContext(suite: suite, recipientKey: lowOrder, info: [UInt8]()) } == .invalidKey)
        #expect(kind {
            _ = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey,
                                          encapsulatedKey: try PrivateKey.generate(.x25519).publicKey.rawRepresentation,
                                          info: [UInt8](), senderPublicKey: lowOrder)
        } == .invalidKey)
        #expect(kind {
            _ = try HPKE.RecipientContext(suite: suite, recipientKey: recipientKey, encapsulatedKey: hex(point).dropLast(),
                                          info: [UInt8]())
        } == .invalidEncapsulatedKey)
    }

    @Test("Suite identifiers")
    func identifiers() throws {
        #expect(try HPKE.Ciphersuite(kemID: 0x10, kdfID: 1, aeadID: 1) == .p256SHA256AES128GCM)
        #expect(kind { _ = try HPKE.Ciphersuite(kemID: 0x21, kdfID: 1, aeadID: 1) } == .unsupportedSuite)
        #expect(kind { _ = try HPKE.Ciphersuite(kemID: 0x10, kdfID: 4, aeadID: 1) } == .unsupportedSuite)
        #expect(kind { _ = try HPKE.Ciphersuite(kemID: 0x10, kdfID: 1, aeadID: 4) } == .unsupportedSuite)
        #expect(HPKE.KEM.p521HKDFSHA512.encapsulatedKeyByteCount == 133)
        #expect(HPKE.KEM.p521HKDFSHA512.privateKeyByteCount == 66)
        #expect(HPKE.KEM.p384HKDFSHA384.sharedSecretByteCount == 48)
        #expect(HPKE.AEAD.exportOnly.keyByteCount == 0)
    }

    @Test("DeriveKeyPair is deterministic for every KEM", arguments: HPKE.KEM.allCases)
    func deriveKeyPair(kem: HPKE.KEM) throws {
        let ikm = [UInt8](repeating: 0x42, count: kem.privateKeyByteCount)
        let a = try HPKE.deriveKeyPair(kem: kem, ikm: ikm)
        let b = try HPKE.deriveKeyPair(kem: kem, ikm: ikm)
        #expect(a.curve == kem.curve)
        #expect(a.publicKey == b.publicKey)
        #expect(a.publicKey != (try HPKE.deriveKeyPair(kem: kem, ikm: ikm + [0])).publicKey)
    }

    @Test("Error descriptions carry no key material")
    func errorDescriptions() throws {
        let recipientKey = try PrivateKey.generate(.p256)
        var enc = try PrivateKey.generate(.p256).publicKey.uncompressedPoint
        enc[64] ^= 1
        do {
            _ = try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: recipientKey, encapsulatedKey: enc,
                              ciphertext: [UInt8](repeating: 0, count: 32), info: [UInt8]())
            Issue.record("expected a failure")
        } catch let error as HPKEError {
            #expect(!error.description.contains(hexString(Array(enc[1...8]))))
            #expect(!error.description.lowercased().contains(hexString(try recipientKey.rawPrivateBytes()).prefix(8)))
        }
    }
}
