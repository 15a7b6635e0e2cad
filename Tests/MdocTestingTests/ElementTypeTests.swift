import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Element values of the namespaces the product knows have their data types; unknown ones pass untyped.
@Suite("Element data types")
struct ElementTypeTests {
    static func fullDate(_ text: String) -> CBORValue { .tagged(1004, .text(text)) }

    static func run(_ elements: [DataElement], docType: String = DocType.mDL, request: RequestPolicy? = nil) throws -> VerificationReport {
        try SimulatedCase(time: Fixtures.time) {
            $0.docType = docType
            $0.content = elements
            $0.request = request
        }.run().report
    }

    @Test("a wrong type is element.type_invalid naming the element", arguments: [
        (NameSpace.mDL, "age_over_21", CBORValue.map([(.array([.unsigned(1)]), .unsigned(1)), (.map([]), .unsigned(2))]), "is a map"),
        (NameSpace.mDL, "family_name", .unsigned(7), "is an unsigned integer"),
        (NameSpace.mDL, "family_name", .text(String(repeating: "x", count: 151)), "151 characters; at most 150"),
        (NameSpace.mDL, "resident_country", .text("USA"), "3 characters; at most 2"),
        (NameSpace.mDL, "birth_date", .text("12.04.1990"), "is a text string"),
        (NameSpace.mDL, "birth_date", fullDate("1990-13-12"), "not a YYYY-MM-DD"),
        (NameSpace.mDL, "expiry_date", .unsigned(2030), "is an unsigned integer"),
        (NameSpace.mDL, "portrait", .text("not bytes"), "is a text string"),
        (NameSpace.mDL, "age_in_years", .negative(0), "is a negative integer"),
        (NameSpace.mDL, "driving_privileges", .array([.map([(.text("issue_date"), fullDate("2024-01-01"))])]), "without vehicle_category_code"),
        (NameSpace.mDL, "driving_privileges", .array([.map([(.text("vehicle_category_code"), .text("B")),
                                                            (.text("codes"), .array([.map([(.text("code"), .unsigned(78))])]))])]),
         "whose code is an unsigned integer"),
        (NameSpace.mDL, "driving_privileges", .array([.map([(.text("vehicle_category_code"), .text("B")), (.unsigned(1), .text("x"))])]),
         "a map with a non-text key"),
        (NameSpace.aamva, "organ_donor", .text("yes"), "is a text string"),
        (NameSpace.iso23220, "sex", .text("F"), "is a text string"),
        (NameSpace.iso23220, "birth_date", .map([(.text("approximate_mask"), .text("0"))]), "is a map"),
        (NameSpace.iso23220Japan, "birth_date_unicode", fullDate("1990-04-12"), "with tag 1004"),
    ])
    func wrongType(nameSpace: String, element: String, value: CBORValue, says: String) throws {
        let docType = nameSpace == NameSpace.mDL || nameSpace == NameSpace.aamva ? DocType.mDL : DocType.photoID
        let report = try Self.run([DataElement(nameSpace, element, value)], docType: docType)
        #expect(report.errors.map(\.code) == [.elementTypeInvalid])
        let detail = report.checks.first { $0.id == .elementTypes && $0.status == .fail }?.detail ?? ""
        #expect(detail.hasPrefix("\(nameSpace)/\(element) "), "\(detail)")
        #expect(detail.contains(says), "\(detail)")
        #expect(report.documents.isEmpty)
    }

    @Test("a map missing several required keys is named by the first missing key in key order", arguments: [
        (["c"], "a map without a"),
        (["a", "c"], "a map without b"),
        (["a", "b", "d"], "a map without c"),
        (["a", "b", "c", "d"], nil),
    ] as [([String], String?)])
    func firstMissingKey(present: [String], expected: String?) throws {
        let type = ElementType.map(required: ["d": .text(maxCharacters: nil), "b": .text(maxCharacters: nil), "a": .text(maxCharacters: nil), "c": .text(maxCharacters: nil)], optional: [:])
        let map = try CBORDecoder.decode(CBOREncoder.encode(.map(present.map { (.text($0), .text("x")) })))
        #expect(type.mismatch(map) == expected)
    }

    @Test("a YYYY-MM-DD text without tag 1004 where a full-date belongs: the default profile warns and verifies, strict refuses")
    func untaggedFullDate() throws {
        let element = DataElement(NameSpace.mDL, "birth_date", .text("1990-04-12"))
        let lenient = try Self.run([element])
        #expect(lenient.verified, "\(lenient.errors)")
        let line = lenient.checks.first { $0.id == .elementTypes }
        #expect(line?.status == .warn && line?.detail.contains("birth_date carry a YYYY-MM-DD text without tag 1004") == true)
        let strict = try SimulatedCase(profile: .strict, time: Fixtures.time) { $0.content = [element] }.run().report
        #expect(strict.errors.map(\.code) == [.elementTypeInvalid])
    }

    @Test("the shapes real wallets send verify: a Digital ID (birth_date map, integer sex), Japanese text, unknown elements untyped")
    func realShapes() throws {
        let digitalID = try SimulatedCase(time: Fixtures.time) { $0.docType = DocType.photoID }.run()
        #expect(digitalID.report.verified, "\(digitalID.report.errors)")
        #expect(digitalID.report.checks.contains { $0.id == .elementTypes && $0.status == .pass })
        let japan = try Self.run([
            DataElement(NameSpace.iso23220Japan, "full_name_unicode", .text("山田 花子")),
            DataElement(NameSpace.iso23220Japan, "birth_date_unicode", .text("1990-04-12")),
            DataElement(NameSpace.iso23220Japan, "sex_unicode", .text("2")),
            DataElement(NameSpace.iso23220, "birth_date", Self.fullDate("1990-04-12")),
            DataElement("org.example.unknown", "anything", .map([(.text("x"), .unsigned(1))])),
            DataElement(NameSpace.mDL, "some_future_element", .array([])),
        ], docType: DocType.photoID)
        #expect(japan.verified, "\(japan.errors)")
    }

    @Test("the age fallback works in org.iso.23220.1 too: age_over_21 derived from age_in_years, the exact age withheld")
    func ageFallbackInISO23220() throws {
        let request = RequestPolicy(documents: [.init(docType: DocType.photoID, nameSpaces: [NameSpace.iso23220: ["age_over_21": false]])])
        let result = try SimulatedCase(time: Fixtures.time) {
            $0.docType = DocType.photoID
            $0.elements = [ElementID(NameSpace.iso23220, "age_in_years")]
            $0.request = request
        }.run()
        #expect(result.report.verified, "\(result.report.errors)")
        let document = try #require(result.report.documents.first)
        #expect(document.value(NameSpace.iso23220, "age_over_21") == .bool(true))
        #expect(document.value(NameSpace.iso23220, "age_in_years") == nil)
    }
}
