@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `policy.doctype` alone: the document's docType against the request the row gives; it establishes the request for
/// the docType only when it passes.
@Suite("policy.doctype: the returned docType was requested, per row")
struct PolicyDocTypeTests {
    static func request(_ docTypes: [String]) -> RequestPolicy {
        RequestPolicy(documents: docTypes.map { .init(docType: $0, nameSpaces: [NameSpace.mDL: ["family_name": false]]) })
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// nil: the caller gave no request.
        let requested: [String]?
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "the mDL was requested", requested: [DocType.mDL], expect: ["pass"]),
        Row(name: "the mDL among others", requested: [DocType.photoID, DocType.mDL], expect: ["pass"]),
        Row(name: "only another docType", requested: [DocType.photoID], expect: ["fail policy.doctype_not_requested"]),
        Row(name: "an empty request", requested: [], expect: ["fail policy.doctype_not_requested"]),
        Row(name: "no request", requested: nil, expect: ["skip"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.mDL()
        let facts = CheckFixture.facts(parsed, row.requested == nil ? [] : [.requestPolicy], request: row.requested.map(Self.request))
        let result = CheckFixture.run(.policyDocType, on: parsed, facts: facts)
        #expect(result.lines == row.expect, "\(result.details)")
        #expect(result.facts.has(.documentRequest) == (row.expect == ["pass"]))
        if row.requested == nil {
            #expect(result.details == ["needs the relying party's request, which the caller did not give"])
        }
    }
}
