@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `policy.elements` alone: the returned elements against the document request the row gives.
@Suite("policy.elements: every returned element was requested, per row")
struct PolicyElementsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Which of the returned mDL elements the request names; nil: all of them.
        let requested: [String]?
        let expect: Set<String>
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "every returned element requested", requested: nil, expect: ["pass"]),
        Row(name: "only family_name requested", requested: ["family_name"], expect: ["fail policy.element_not_requested"]),
        Row(name: "nothing of the namespace requested", requested: [], expect: ["fail policy.element_not_requested"]),
    ]

    /// A request for the returned elements (all of them, or the named ones of the mDL namespace).
    static func request(for document: MdocDocument, naming: [String]?) -> RequestPolicy {
        var nameSpaces: [String: [String: Bool]] = [:]
        for nameSpace in document.issuerNameSpaces {
            for item in nameSpace.items where naming == nil || (nameSpace.name == NameSpace.mDL && naming?.contains(item.elementIdentifier) == true) {
                nameSpaces[nameSpace.name, default: [:]][item.elementIdentifier] = false
            }
        }
        if nameSpaces.isEmpty { nameSpaces[NameSpace.mDL] = [:] }
        return RequestPolicy(documents: [.init(docType: document.docType, nameSpaces: nameSpaces)])
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.mDL()
        let request = Self.request(for: parsed.document, naming: row.requested)
        let result = CheckFixture.run(.policyElements, on: parsed, facts: CheckFixture.facts(parsed, [.documentRequest], request: request))
        #expect(Set(result.lines) == row.expect, "\(result.details)")
        #expect(result.facts.has(.ageDisclosure), "the comparison is established even when it finds unrequested elements")
    }

    @Test("without a request for the docType the check is skipped, naming policy.doctype")
    func skip() throws {
        let parsed = try CheckFixture.mDL()
        let result = CheckFixture.run(.policyElements, on: parsed, facts: CheckFixture.facts(parsed, [.requestPolicy]))
        #expect(result.lines == ["skip"])
        #expect(result.details == ["needs a request for this docType, which policy.doctype did not establish"])
    }
}
