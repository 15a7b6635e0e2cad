import Mdoc
import MdocModel
import MdocTesting
@testable import mdocverify
import Testing
import Verifier

/// The text report marks what the JSON report marks: device-signed elements and derived answers.
@Suite("mdocverify text report")
struct ReportPrinterTests {
    @Test("device-signed elements say [device-signed]; an age answer derived from age_in_years says so")
    func provenanceMarks() throws {
        let time = RFC3339.parseDateTime("2026-06-01T12:00:00Z") ?? .now
        let result = try SimulatedCase(time: time) {
            $0.elements = [ElementID(NameSpace.mDL, "age_in_years")]
            $0.deviceSignedElements = [DataElement("org.example.device", "note", .text("hello"))]
            $0.keyAuthorizations = .init(nameSpaces: ["org.example.device"])
            $0.request = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [
                NameSpace.mDL: ["age_over_21": false], "org.example.device": ["note": false],
            ])])
        }.run()
        #expect(result.report.verified, "\(result.report.errors)")
        let text = ReportPrinter.text(result.report)
        #expect(text.contains("note: hello  [device-signed]"), "\(text)")
        #expect(text.contains("age_over_21: true  [derived from age_in_years]"), "\(text)")
        #expect(!text.contains("age_in_years:"))
    }
}
