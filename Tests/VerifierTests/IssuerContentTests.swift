import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing

/// `issuing_country` / `issuing_jurisdiction` must agree with the document signer's subject (C / ST).
@Suite("Issuer content tied to the document signer")
struct IssuerContentTests {
    static let time = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01

    static func run(country: String, jurisdiction: String) throws -> SimulatedCase.Result {
        try SimulatedCase(time: time) {
            $0.content = [
                DataElement(NameSpace.mDL, "family_name", .text("Mustermann")),
                DataElement(NameSpace.mDL, "issuing_country", .text(country)),
                DataElement(NameSpace.mDL, "issuing_jurisdiction", .text(jurisdiction)),
            ]
        }.run()
    }

    @Test("matching country and jurisdiction pass (the test PKI's DS is C=US, ST=US-CA)")
    func matching() throws {
        let result = try Self.run(country: "US", jurisdiction: "US-CA")
        #expect(result.report.verified, "\(result.report.errors)")
        #expect(result.report.checks.contains { $0.id == .issuerContent && $0.status == .pass })
    }

    @Test("another issuing_country or issuing_jurisdiction is issuer.content_mismatch")
    func mismatching() throws {
        let country = try Self.run(country: "DE", jurisdiction: "US-CA")
        #expect(country.report.errors.map(\.code) == [.issuerContentMismatch])
        #expect(country.report.documents.isEmpty)
        let jurisdiction = try Self.run(country: "US", jurisdiction: "US-NY")
        #expect(jurisdiction.report.errors.map(\.code) == [.issuerContentMismatch])
    }
}
