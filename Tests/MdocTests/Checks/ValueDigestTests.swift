import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `digest.values` alone: each disclosed item's digest against the MSO the row gives.
@Suite("digest.values: disclosed items against the MSO's valueDigests, per row")
struct ValueDigestTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let faults: [Fault]
        let expect: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "every item matches", faults: [], expect: "pass"),
        Row(name: "a value changed after signing", faults: [.tamperedElementValue], expect: "fail digest.mismatch"),
        Row(name: "no digest for an item's digestID", faults: [.missingDigestID], expect: "fail digest.missing"),
        Row(name: "two items with one digestID", faults: [.duplicateDigestID], expect: "fail digest.duplicate"),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.cached("digests \(row.faults)") { try CheckFixture.parse(faults: row.faults) }
        let result = CheckFixture.run(.valueDigests, on: parsed, facts: CheckFixture.facts(parsed, [.mso, .digestAlgorithm]))
        #expect(!result.lines.isEmpty)
        #expect(Set(result.lines) == [row.expect], "\(result.details)")
    }

    @Test("the MSO of another document (the facts the check is given) matches none of the items")
    func anotherDocumentsMSO() throws {
        let parsed = try CheckFixture.mDL()
        let other = try CheckFixture.cached("seed 72") { try CheckFixture.parse(seed: 72) }
        let result = CheckFixture.run(.valueDigests, on: parsed, facts: CheckFixture.facts(parsed, [.mso, .digestAlgorithm], mso: other.mso))
        #expect(Set(result.lines) == ["fail digest.mismatch"], "\(result.details)")
        #expect(result.lines.count == parsed.document.issuerNameSpaces.reduce(0) { $0 + $1.items.count })
    }

    @Test("without a supported digest algorithm the check is skipped, naming mso.digest_algorithm")
    func skip() throws {
        let parsed = try CheckFixture.mDL()
        let result = CheckFixture.run(.valueDigests, on: parsed, facts: CheckFixture.facts(parsed, [.mso]))
        #expect(result.lines == ["skip"])
        #expect(result.details == ["needs a supported MSO digest algorithm, which mso.digest_algorithm did not establish"])
    }

    @Test("mso.digest_algorithm establishes the algorithm for SHA-256 and not for SHA-1")
    func digestAlgorithmFact() throws {
        let parsed = try CheckFixture.mDL()
        let now = CheckFixture.time
        let supported = CheckFixture.run(.msoDigestAlgorithm, on: parsed, facts: CheckFixture.facts(parsed, [.mso]))
        #expect(supported.lines == ["pass"])
        #expect(supported.facts.has(.digestAlgorithm))
        let sha1 = try CheckFixture.mso(signed: now, validFrom: now, validUntil: now + 60, digestAlgorithm: "SHA-1")
        let unsupported = CheckFixture.run(.msoDigestAlgorithm, on: parsed, facts: CheckFixture.facts(parsed, [.mso], mso: sha1))
        #expect(unsupported.lines == ["fail mso.digest_algorithm_unsupported"])
        #expect(!unsupported.facts.has(.digestAlgorithm))
    }
}
