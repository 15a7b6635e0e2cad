import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Faults compose; conflicts and misapplied faults are refused; the expectation helper explains mismatches.
@Suite("MdocTesting: faults combine, conflicts are refused, expectation() explains mismatches")
struct FaultCompositionTests {
    @Test("document faults combine: the report holds codes from the faults only")
    func combined() throws {
        let combos: [[Fault]] = [
            [.tamperedElementValue, .msoExpired],
            [.untrustedRoot, .deviceKeyMismatch, .unknownMapKeys],
            [.documentSignerWrongEKU, .documentSignerIsCA, .msoDocTypeMismatch],
            [.unsupportedCOSEAlgorithm, .issuerSignatureCorrupted],
            [.documentSignerExpired, .msoNotYetValid, .nonShortestCBOR],
            [.missingDigestID, .duplicateDigestID, .deviceSignedElementUnauthorized],
        ]
        for faults in combos {
            let result = try SimulatedCase(faults: faults, time: Fixtures.time).run()
            #expect(!result.report.verified)
            #expect(result.failure == nil, "\(faults.map(\.name)): \(result.failure ?? "")")
        }
        let both = try SimulatedCase(faults: [.tamperedElementValue, .msoExpired], time: Fixtures.time).run()
        #expect(Set(both.report.errors.map(\.code)) == [.digestMismatch, .msoExpired])
    }

    @Test("the verifier stops at the first transport fault, and the expectation names that one")
    func transportOrder() throws {
        let faults: [Fault] = [.corruptedCiphertext, .wrongInfoHash, .tamperedElementValue]
        #expect(ExpectedOutcome.forFaults(faults, format: .appleApp) == .rejected(.envelopeTranscriptMismatch))
        let result = try SimulatedCase(faults: faults, time: Fixtures.time).run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        #expect(ExpectedOutcome.forFaults([.encryptedToOtherKey, .truncatedEnvelope], format: .appleApp) == .rejected(.inputMalformed))
    }

    @Test("conflicting faults and faults of another format are refused")
    func refused() throws {
        #expect(throws: SimulationError.conflictingFaults(.msoExpired, .msoNotYetValid)) {
            try SimulatedCase(faults: [.msoExpired, .msoNotYetValid], time: Fixtures.time).run()
        }
        #expect(throws: SimulationError.self) {
            try SimulatedCase(faults: [.wrongInfoHash], format: .deviceResponse, time: Fixtures.time).run()
        }
        #expect(throws: SimulationError.self) {
            try SimulatedCase(time: Fixtures.time) { $0.elements = [ElementID(NameSpace.mDL, "favourite_colour")] }.run()
        }
        // Tampering needs an element other than issuing_country / issuing_jurisdiction.
        #expect(throws: SimulationError.self) {
            try SimulatedCase(faults: [.tamperedElementValue], time: Fixtures.time) {
                $0.elements = [ElementID(NameSpace.mDL, "issuing_country")]
            }.run()
        }
    }

    @Test("expectation() is nil on a match and shows the report on a mismatch")
    func helper() throws {
        let result = try SimulatedCase(faults: [.msoExpired], time: Fixtures.time).run()
        #expect(expectation(result.report, .rejected(.msoExpired)) == nil)
        #expect(expectation(result.report, .rejectedWithin([.msoExpired, .digestMismatch])) == nil)
        let wrong = try #require(expectation(result.report, .verified))
        #expect(wrong.contains("expected verified, got rejected with {mso.expired}"))
        #expect(wrong.contains("FAIL mso.validity [doc 0] mso.expired"))
        #expect(wrong.contains("PASS issuer.signature"))
        #expect(expectation(result.report, .rejected(.digestMismatch)) != nil)
        #expect(expectation(result.report, .rejectedWithin([.digestMismatch])) != nil)
        // An explicit expectation overrides the faults' and is what `failure` reports against.
        let overridden = try SimulatedCase(faults: [.msoExpired], time: Fixtures.time, expected: .verified).run()
        #expect(overridden.failure?.contains("expected verified") == true)
    }

    @Test("element lists parse as namespace:identifier")
    func elementIDs() {
        #expect(ElementID.list("org.iso.18013.5.1:family_name, org.iso.18013.5.1.aamva:DHS_compliance")
            == [ElementID(NameSpace.mDL, "family_name"), ElementID(NameSpace.aamva, "DHS_compliance")])
        #expect(ElementID.list("family_name") == nil)
        #expect(ElementID(parsing: "org.iso.18013.5.1:") == nil)
    }
}
