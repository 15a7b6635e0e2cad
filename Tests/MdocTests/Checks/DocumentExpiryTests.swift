import CBOR
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `element.document_expired` alone: the returned `expiry_date` (2032-04-12 in the sample) against the verification time.
@Suite("element.document_expired: a document is valid through its expiry_date, per row")
struct DocumentExpiryTests {
    /// 2032-04-12T00:00:00Z, the sample's expiry_date.
    static let expiryDay = Date(timeIntervalSince1970: 1_965_340_800)

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let time: Date
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "years before", time: CheckFixture.time, expect: ["pass"]),
        Row(name: "the first second of the expiry day", time: expiryDay, expect: ["pass"]),
        Row(name: "the last second of the expiry day", time: expiryDay + 86_399, expect: ["pass"]),
        Row(name: "the day after", time: expiryDay + 86_400, expect: ["warn"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.mDL()
        let result = CheckFixture.run(.documentExpiry, on: parsed, facts: CheckFixture.facts(parsed, []), at: row.time)
        #expect(result.lines == row.expect, "\(result.details)")
    }

    @Test("no expiry_date returned, or one that is not a date: skipped with the reason", arguments: [
        ("absent", "no expiry_date element was returned"), ("text", "the returned expiry_date is not a date"),
    ])
    func skipped(variant: String, detail: String) throws {
        let parsed = try CheckFixture.cached("expiry \(variant)") {
            try CheckFixture.parse { options in
                var content = SampleContent.elements(for: DocType.mDL, at: CheckFixture.time) ?? []
                content.removeAll { $0.identifier == "expiry_date" }
                if variant == "text" { content.append(DataElement(NameSpace.mDL, "expiry_date", .text("soon"))) }
                options.content = content
            }
        }
        let result = CheckFixture.run(.documentExpiry, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(result.lines == ["skip"])
        #expect(result.details == [detail])
    }
}
