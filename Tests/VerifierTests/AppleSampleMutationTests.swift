import CBOR
import Foundation
import Mdoc
import Testing
import TestSupport
import Verifier

/// Bad input never crashes, hangs or releases data: random byte mutations of Apple's sample (the envelope
/// as received, and the plaintext re-encrypted so the mutation reaches the mdoc checks) always end in a
/// report whose every error has a stable code, with no documents unless everything passed.
@Suite("Apple's sample, randomly mutated: rejected with a code, or verified with only true values")
struct AppleSampleMutationTests {
    static func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        switch rng.next() % 4 {
        case 0: // flip one bit
            let i = Int(rng.next() % UInt64(out.count))
            out[i] ^= UInt8(1 << (rng.next() % 8))
        case 1: // overwrite a byte with a CBOR head that declares something large
            let i = Int(rng.next() % UInt64(out.count))
            out[i] = [0x5b, 0x7b, 0x9b, 0xbb, 0xdb, 0x1b, 0xff, 0x9f][Int(rng.next() % 8)]
        case 2: // truncate
            out = Array(out.prefix(Int(rng.next() % UInt64(out.count))))
        default: // insert a byte
            let i = Int(rng.next() % UInt64(out.count))
            out.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
        }
        return out
    }

    static func assertWellFormed(_ report: VerificationReport) {
        if report.verified {
            #expect(report.errors.isEmpty)
        } else {
            #expect(!report.errors.isEmpty)
            #expect(report.documents.isEmpty)
            #expect(report.checks.contains { $0.status == .fail })
        }
    }

    @Test("mutated envelopes are rejected with a code")
    func envelopes() throws {
        let verifier = try AppleFixtures.verifier()
        let original = AppleSampleVector.envelope
        var rng = SplitMix64(seed: 0xA11CE)
        var mutated = 0
        for _ in 0 ..< 300 {
            let bytes = Self.mutate(original, using: &rng)
            guard bytes != original else { continue }
            mutated += 1
            let report = verifier.verify(encryptedData: bytes, session: AppleFixtures.session, at: AppleSampleVector.validTime)
            // Every byte of the envelope is either authenticated by HPKE or checked before decrypting.
            #expect(!report.verified, "a mutated envelope verified")
            #expect(!report.errors.isEmpty && report.documents.isEmpty)
            #expect(report.checks.contains { $0.status == .fail })
        }
        #expect(mutated > 250)
    }

    @Test("mutated plaintexts reach the mdoc checks: rejected with a code, or verified with a subset of the true values")
    func plaintexts() throws {
        let verifier = try AppleFixtures.verifier()
        let plaintext = AppleSampleVector.plaintext
        let original = verifier.verify(encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        let truth = try #require(original.documents.first)
        var rng = SplitMix64(seed: 0xB0B)
        var verified = 0
        for _ in 0 ..< 150 {
            let envelope = try AppleFixtures.envelope(plaintext: Self.mutate(plaintext, using: &rng))
            let report = verifier.verify(encryptedData: envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
            Self.assertWellFormed(report)
            guard report.verified else { continue }
            verified += 1
            // Only unsigned structure can change without failing a check: e.g. renaming the optional
            // `nameSpaces` key withholds every element, which ISO 18013-5 allows. No mutation may change
            // a disclosed value or add one.
            for document in report.documents {
                for (nameSpace, elements) in document.elements {
                    for (identifier, element) in elements {
                        #expect(truth.value(nameSpace, identifier) == element.value, "\(nameSpace)/\(identifier) changed")
                    }
                }
            }
        }
        #expect(verified < 10)
    }
}
