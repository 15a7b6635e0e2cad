import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// A yes/no age question never releases the exact age (ISO/IEC 18013-5 §7.2.5): the simulated holder is 36
/// at `Fixtures.time`.
@Suite("Request policy: age questions")
struct AgeDisclosureTests {
    static let formats: [ResponseFormat] = [.appleApp, .annexC, .deviceResponse]

    static func request(_ elements: [String: Bool], nameSpace: String = NameSpace.mDL) -> RequestPolicy {
        RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [nameSpace: elements])])
    }

    static func run(_ format: ResponseFormat, returning elements: [String], request: RequestPolicy) throws -> SimulatedCase.Result {
        try SimulatedCase(format: format, time: Fixtures.time) {
            $0.elements = elements.map { ElementID(NameSpace.mDL, $0) }
            $0.request = request
        }.run()
    }

    @Test("age_over_21 asked and returned beside age_in_years, age_birth_year or birth_date: policy.element_not_requested",
          arguments: Self.formats, ["age_in_years", "age_birth_year", "birth_date"])
    func exactAgeBesideTheAnswer(format: ResponseFormat, extra: String) throws {
        let result = try Self.run(format, returning: ["age_over_21", extra], request: Self.request(["age_over_21": false]))
        #expect(result.report.errors.map(\.code) == [.policyElementNotRequested])
        #expect(result.report.errors.first?.message.contains("\(NameSpace.mDL)/\(extra) was returned but not requested") == true)
        #expect(result.report.documents.isEmpty)
        #expect(!result.report.json.serialized().contains("\"\(extra)\""))
    }

    @Test("age_in_years alone answers age_over_NN: a derived boolean is released and the exact age withheld",
          arguments: Self.formats)
    func derivedAnswer(format: ResponseFormat) throws {
        let request = Self.request(["age_over_21": true, "age_over_65": false, "family_name": false])
        let result = try Self.run(format, returning: ["age_in_years", "family_name"], request: request)
        #expect(result.report.verified, "\(result.report.errors)")
        let document = try #require(result.report.documents.first)
        #expect(document.value(NameSpace.mDL, "age_in_years") == nil)
        #expect(document.value(NameSpace.mDL, "age_over_21") == .bool(true))
        #expect(document.value(NameSpace.mDL, "age_over_65") == .bool(false))
        #expect(document.elements[NameSpace.mDL]?["age_over_21"]?.derivedFrom == "age_in_years")
        #expect(document.elements[NameSpace.mDL]?["age_over_21"]?.intentToRetain == true)
        #expect(document.elements[NameSpace.mDL]?["family_name"]?.derivedFrom == nil)
        #expect(document.derived == [NameSpace.mDL: ["age_over_21": "age_in_years", "age_over_65": "age_in_years"]])
        #expect(document.missing.isEmpty)
        let fallbacks = result.report.checks.filter { $0.id == .policyAgeFallback }
        #expect(fallbacks.count == 2 && fallbacks.allSatisfy { $0.status == .pass && $0.detail.contains("withheld") })

        let json = result.report.json.serialized()
        #expect(!json.contains("\"age_in_years\":36"))
        #expect(json.contains("\"derived\":{\"\(NameSpace.mDL)\":{\"age_over_21\":\"age_in_years\",\"age_over_65\":\"age_in_years\"}}"))
    }

    @Test("age_in_years requested as well as age_over_21: both released as returned, nothing derived")
    func exactAgeRequested() throws {
        let result = try Self.run(.appleApp, returning: ["age_in_years"],
                                  request: Self.request(["age_over_21": false, "age_in_years": false]))
        #expect(result.report.verified, "\(result.report.errors)")
        let document = try #require(result.report.documents.first)
        #expect(document.value(NameSpace.mDL, "age_in_years") == .unsigned(36))
        #expect(document.value(NameSpace.mDL, "age_over_21") == nil)
        #expect(document.missing == ["\(NameSpace.mDL)/age_over_21"])
        #expect(result.report.checks.filter { $0.id == .policyAgeFallback }.map(\.status) == [.pass])
        #expect(result.report.checks.first { $0.id == .policyAgeFallback }?.detail.hasPrefix("no age question") == true)
    }

    @Test("an age_in_years that is not an unsigned integer cannot answer: element.type_invalid")
    func fallbackSourceNotAnInteger() throws {
        let result = try SimulatedCase(time: Fixtures.time) {
            $0.content = [DataElement(NameSpace.mDL, "age_in_years", .text("36"))]
            $0.request = Self.request(["age_over_21": false])
        }.run()
        #expect(Set(result.report.errors.map(\.code)) == [.elementTypeInvalid])
        #expect(result.report.checks.contains { $0.id == .policyAgeFallback && $0.status == .fail })
        #expect(result.report.documents.isEmpty)
    }

    @Test("the rule as a table", arguments: [
        // (requested, returned, unrequested, derived, withheld)
        (["age_over_21"], ["age_over_21"], [String](), [String](), [String]()),
        (["age_over_21"], ["age_over_21", "age_in_years"], ["age_in_years"], [], []),
        (["age_over_21"], ["age_in_years"], [], ["age_over_21"], ["age_in_years"]),
        (["age_over_18", "age_over_21"], ["age_over_18", "age_in_years"], [], ["age_over_21"], ["age_in_years"]),
        (["age_over_21", "age_in_years"], ["age_in_years"], [], [], []),
        (["age_over_21"], ["birth_date"], ["birth_date"], [], []),
        (["age_over_x1"], ["age_in_years"], ["age_in_years"], [], []),
        (["family_name"], ["age_in_years"], ["age_in_years"], [], []),
        // A returned identifier appears once in the unrequested list, in sorted order.
        (["family_name"], ["birth_date", "family_name", "birth_date", "age_in_years"], ["age_in_years", "birth_date"], [], []),
        (["age_over_65", "age_over_18"], ["age_in_years"], [], ["age_over_18", "age_over_65"], ["age_in_years"]),
    ])
    func table(requested: [String], returned: [String], unrequested: [String], derived: [String], withheld: [String]) {
        let request = RequestPolicy.DocumentRequest(docType: DocType.mDL,
                                                    nameSpaces: ["ns": Dictionary(uniqueKeysWithValues: requested.map { ($0, false) })])
        let rule = AgeDisclosure(request: request, returned: returned.map { ("ns", $0) })
        #expect(rule.unrequested == unrequested.map { "ns/\($0)" })
        #expect(rule.derivations.map(\.element) == derived)
        #expect(rule.withheld["ns"].map { Array($0).sorted() } ?? [] == withheld)
    }

    @Test("device-signed elements carry their provenance into the report")
    func deviceSignedProvenance() throws {
        let result = try SimulatedCase(time: Fixtures.time) {
            $0.elements = [ElementID(NameSpace.mDL, "family_name")]
            $0.deviceSignedElements = [DataElement("org.example.device", "note", .text("hello"))]
            $0.keyAuthorizations = .init(nameSpaces: ["org.example.device"])
        }.run()
        #expect(result.report.verified, "\(result.report.errors)")
        let document = try #require(result.report.documents.first)
        #expect(document.deviceSigned == ["org.example.device": ["note"]])
        #expect(document.elements[NameSpace.mDL]?["family_name"]?.deviceSigned == false)
        let json = result.report.json.serialized()
        #expect(json.contains("\"deviceSigned\":{\"org.example.device\":[\"note\"]}"))
    }
}
