@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `issuer.algorithm` alone: issuerAuth's headers and `alg`; it establishes the algorithm only when it passes.
@Suite("issuer.algorithm: RFC 9052 headers and a supported alg, per row")
struct IssuerAlgorithmTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let faults: [Fault]
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "ES256 in the protected header", faults: [], expect: ["pass"]),
        Row(name: "PS256 (-37)", faults: [.unsupportedCOSEAlgorithm], expect: ["fail issuer.algorithm_unsupported"]),
        Row(name: "crit names a label the verifier does not process", faults: [.issuerCritUnknown], expect: ["fail cose.header_invalid"]),
        Row(name: "crit in the unprotected header", faults: [.issuerCritUnprotected], expect: ["fail cose.header_invalid"]),
        Row(name: "alg repeated unprotected", faults: [.issuerAlgUnprotected], expect: ["fail cose.header_invalid"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.cached("algorithm \(row.faults)") { try CheckFixture.parse(faults: row.faults) }
        let result = CheckFixture.run(.issuerAlgorithm, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(result.lines == row.expect, "\(result.details)")
        // The fact exists exactly when the check passed.
        #expect(result.facts.has(.issuerAlgorithm) == (row.expect == ["pass"]))
    }
}
