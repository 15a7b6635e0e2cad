import TestSupport
import CryptoCore
import Foundation
import HPKE
import Testing

/// One entry of the official RFC 9180 test-vector JSON (cfrg/draft-irtf-cfrg-hpke test-vectors.json,
/// git blob 514dd8bb…). All byte values are hex strings.
struct OfficialVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Encryption: Decodable, Sendable {
        let aad: String
        let ct: String
        let nonce: String
        let pt: String
    }

    struct Export: Decodable, Sendable {
        let exporter_context: String
        let L: Int
        let exported_value: String
    }

    let mode: UInt8
    let kem_id: UInt16
    let kdf_id: UInt16
    let aead_id: UInt16
    let info: String
    let ikmR: String
    let ikmE: String
    let ikmS: String?
    let skRm: String
    let skEm: String
    let skSm: String?
    let pkRm: String
    let pkEm: String
    let pkSm: String?
    let psk: String?
    let psk_id: String?
    let enc: String
    let shared_secret: String
    let key_schedule_context: String
    let secret: String
    let key: String
    let base_nonce: String
    let exporter_secret: String
    let encryptions: [Encryption]
    let exports: [Export]

    var testDescription: String {
        "mode \(mode) kem 0x\(String(kem_id, radix: 16)) kdf \(kdf_id) aead 0x\(String(aead_id, radix: 16))"
    }

    var suite: HPKE.Ciphersuite { get throws { try HPKE.Ciphersuite(kemID: kem_id, kdfID: kdf_id, aeadID: aead_id) } }
    var pskValue: HPKE.PSK? { psk.map { HPKE.PSK(key: hex($0), id: hex(psk_id ?? "")) } }
}

enum OfficialVectors {
    /// Every vector in the file.
    static let all: [OfficialVector] = {
        let url = repositoryRoot.appendingPathComponent("TestVectors/hpke/rfc9180-official-test-vectors.json")
        do {
            return try JSONDecoder().decode([OfficialVector].self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot load \(url.path): \(error)")
        }
    }()

    /// The vectors whose KEM, KDF and AEAD are all supported (X448, kem 0x0021, is not).
    static let supported: [OfficialVector] = all.filter {
        HPKE.KEM(rawValue: $0.kem_id) != nil && HPKE.KDF(rawValue: $0.kdf_id) != nil
            && HPKE.AEAD(rawValue: $0.aead_id) != nil
    }
}

/// Checks every value of one vector; returns the number of encryptions and exports verified.
func verify(_ v: OfficialVector) throws -> (encryptions: Int, exports: Int) {
    let suite = try v.suite
    let kem = suite.kem
    let label = v.testDescription

    // DeriveKeyPair reproduces every key pair.
    let skE = try HPKE.deriveKeyPair(kem: kem, ikm: hex(v.ikmE))
    let skR = try HPKE.deriveKeyPair(kem: kem, ikm: hex(v.ikmR))
    #expect(try skE.rawPrivateBytes() == hex(v.skEm), "skEm \(label)")
    #expect(skE.publicKey.uncompressedPoint == hex(v.pkEm), "pkEm \(label)")
    #expect(try skR.rawPrivateBytes() == hex(v.skRm), "skRm \(label)")
    #expect(skR.publicKey.uncompressedPoint == hex(v.pkRm), "pkRm \(label)")
    // Importing the listed raw keys gives the same public keys.
    #expect(try PrivateKey(curve: kem.curve, rawScalar: hex(v.skRm)).publicKey.uncompressedPoint == hex(v.pkRm))

    var skS: PrivateKey?
    var pkS: PublicKey?
    if let ikmS = v.ikmS {
        let sender = try HPKE.deriveKeyPair(kem: kem, ikm: hex(ikmS))
        #expect(try sender.rawPrivateBytes() == hex(try #require(v.skSm)), "skSm \(label)")
        #expect(sender.publicKey.uncompressedPoint == hex(try #require(v.pkSm)), "pkSm \(label)")
        skS = sender
        pkS = try PublicKey(curve: kem.curve, uncompressedPoint: hex(try #require(v.pkSm)))
    }
    #expect((skS != nil) == (v.mode == 2 || v.mode == 3), "sender key presence \(label)")
    #expect((v.psk != nil) == (v.mode == 1 || v.mode == 3), "psk presence \(label)")

    // Encap with the fixed ephemeral key; Decap.
    let pkR = try PublicKey(curve: kem.curve, uncompressedPoint: hex(v.pkRm))
    let (sharedSecret, enc) = try HPKE.encapsulate(kem: kem, recipientKey: pkR, senderKey: skS, ephemeralKey: skE)
    #expect(enc == hex(v.enc), "enc \(label)")
    #expect(sharedSecret == hex(v.shared_secret), "shared_secret \(label)")
    #expect(try HPKE.decapsulate(kem: kem, encapsulatedKey: enc, recipientKey: skR, senderPublicKey: pkS)
        == hex(v.shared_secret), "Decap \(label)")

    // Key schedule.
    let mode = try #require(HPKE.Mode(rawValue: v.mode))
    let schedule = try hex(v.info).withUnsafeBytes {
        try HPKE.keySchedule(suite: suite, mode: mode, sharedSecret: sharedSecret, info: $0, psk: v.pskValue)
    }
    #expect(schedule.keyScheduleContext == hex(v.key_schedule_context), "key_schedule_context \(label)")
    #expect(schedule.secret == hex(v.secret), "secret \(label)")
    #expect(schedule.key == hex(v.key), "key \(label)")
    #expect(schedule.baseNonce == hex(v.base_nonce), "base_nonce \(label)")
    #expect(schedule.exporterSecret == hex(v.exporter_secret), "exporter_secret \(label)")

    // Contexts through the public API (fixed skE through the package initialiser).
    let info = hex(v.info)
    let sender = try HPKE.SenderContext(suite: suite, recipientKey: pkR, info: info, psk: v.pskValue,
                                        senderKey: skS, ephemeralKey: skE)
    let recipient = try HPKE.RecipientContext(suite: suite, recipientKey: skR, encapsulatedKey: hex(v.enc),
                                              info: info, psk: v.pskValue, senderPublicKey: pkS)
    #expect(sender.encapsulatedKey == hex(v.enc))
    #expect(sender.mode == mode && recipient.mode == mode)
    #expect(sender.key == hex(v.key) && recipient.key == hex(v.key), "context key \(label)")
    #expect(sender.baseNonce == hex(v.base_nonce) && recipient.baseNonce == hex(v.base_nonce))
    #expect(sender.exporterSecret == hex(v.exporter_secret) && recipient.exporterSecret == hex(v.exporter_secret))

    // Every encryption, in sequence order: seal gives ct, open gives pt.
    var encryptions = 0
    for (sequence, e) in v.encryptions.enumerated() {
        #expect(sender.sequenceNumber == UInt64(sequence))
        let ct = try sender.seal(hex(e.pt), aad: hex(e.aad))
        #expect(ct == hex(e.ct), "ct #\(sequence) \(label)")
        let pt = try recipient.open(hex(e.ct), aad: hex(e.aad))
        #expect(pt == hex(e.pt), "pt #\(sequence) \(label)")
        encryptions += 1
    }
    if suite.aead == .exportOnly {
        #expect(v.encryptions.isEmpty)
        #expect(throws: HPKEError.self) { try sender.seal([UInt8](), aad: [UInt8]()) }
    }

    // Every export, from both sides.
    var exports = 0
    for x in v.exports {
        let expected = hex(x.exported_value)
        #expect(try sender.exportSecret(context: hex(x.exporter_context), length: x.L) == expected, "export \(label)")
        #expect(try recipient.exportSecret(context: hex(x.exporter_context), length: x.L) == expected, "export \(label)")
        exports += 1
    }
    return (encryptions, exports)
}

@Suite("RFC 9180 official test vectors")
struct OfficialVectorTests {
    /// The whole corpus in one test, so that the counts printed are the counts verified in this run.
    @Test("Every supported vector: keys, Encap/Decap, key schedule, all encryptions and exports")
    func everyVector() throws {
        #expect(OfficialVectors.all.count == 128)
        var vectors = 0
        var encryptions = 0
        var exports = 0
        var modes = Set<UInt8>()
        var suites = Set<String>()
        for vector in OfficialVectors.supported {
            let counts = try verify(vector)
            vectors += 1
            encryptions += counts.encryptions
            exports += counts.exports
            modes.insert(vector.mode)
            suites.insert("\(vector.kem_id)/\(vector.kdf_id)/\(vector.aead_id)")
        }
        // 128 vectors minus the 32 X448 ones; 72 of the 96 have an AEAD with 257 encryptions each,
        // the 24 export-only ones none; 3 exports per vector.
        #expect(vectors == 96)
        #expect(encryptions == 72 * 257)
        #expect(exports == 96 * 3)
        #expect(modes == [0, 1, 2, 3])
        #expect(suites.count == 24)
        print("HPKE official vectors: \(vectors) vectors, \(encryptions) encryptions, \(exports) exports verified")
    }

    /// The vectors of the Apple / ISO 18013-7 suite, one test case each (readable failures for the suite that matters).
    @Test("P-256 / SHA-256 / AES-128-GCM vectors", arguments: OfficialVectors.supported.filter {
        $0.kem_id == 0x10 && $0.kdf_id == 1 && $0.aead_id == 1
    })
    func appleSuite(vector: OfficialVector) throws {
        let suite = try vector.suite
        #expect(suite == .p256SHA256AES128GCM)
        let skR = try PrivateKey(curve: .p256, rawScalar: hex(vector.skRm))
        let pkS = try vector.pkSm.map { try PublicKey(curve: .p256, uncompressedPoint: hex($0)) }
        if vector.mode == 0 {
            // Single-shot open of the sequence-0 message.
            let first = vector.encryptions[0]
            #expect(try HPKE.open(suite: suite, recipientKey: skR, encapsulatedKey: hex(vector.enc),
                                  ciphertext: hex(first.ct), info: hex(vector.info), aad: hex(first.aad)) == hex(first.pt))
        }
        let recipient = try HPKE.RecipientContext(suite: suite, recipientKey: skR, encapsulatedKey: hex(vector.enc),
                                                  info: hex(vector.info), psk: vector.pskValue, senderPublicKey: pkS)
        for (sequence, e) in vector.encryptions.enumerated() {
            #expect(try recipient.open(hex(e.ct), aad: hex(e.aad)) == hex(e.pt), "#\(sequence)")
        }
    }
}
