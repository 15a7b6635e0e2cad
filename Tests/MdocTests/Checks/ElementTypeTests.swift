import CBOR
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `element.types` alone: returned values of known namespaces against their data types, per profile.
@Suite("element.types: known elements carry their data types, per row")
struct ElementTypeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Replaces the sample's element of the same namespace and identifier.
        let element: DataElement?
        var profile: CertificateProfile = .default
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "the sample's values", element: nil, expect: ["pass"]),
        Row(name: "family_name as an integer", element: DataElement(NameSpace.mDL, "family_name", .unsigned(7)),
            expect: ["fail element.type_invalid"]),
        Row(name: "birth_date as untagged YYYY-MM-DD (default profile)", element: DataElement(NameSpace.mDL, "birth_date", .text("1990-04-12")),
            expect: ["warn"]),
        Row(name: "birth_date as untagged YYYY-MM-DD (strict profile)", element: DataElement(NameSpace.mDL, "birth_date", .text("1990-04-12")),
            profile: .strict, expect: ["fail element.type_invalid"]),
        Row(name: "an unknown namespace passes untyped", element: DataElement("com.example.unknown", "anything", .unsigned(1)),
            expect: ["pass"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.cached("types \(row.name)") {
            try CheckFixture.parse { options in
                guard let element = row.element else { return }
                var content = SampleContent.elements(for: DocType.mDL, at: CheckFixture.time) ?? []
                content.removeAll { $0.nameSpace == element.nameSpace && $0.identifier == element.identifier }
                options.content = content + [element]
            }
        }
        let result = CheckFixture.run(.elementTypes, on: parsed, facts: CheckFixture.facts(parsed, []),
                                      options: MdocVerificationOptions(profile: row.profile))
        #expect(result.lines == row.expect, "\(result.details)")
    }
}
