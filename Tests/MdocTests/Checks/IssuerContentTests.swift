import CBOR
import CryptoCore
import Foundation
import KitCertificates
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `issuer.content` alone: disclosed issuing_country / issuing_jurisdiction against the document signer the row's
/// facts give (the kit's signer is US / US-CA).
@Suite("issuer.content: issuing country and jurisdiction match the document signer, per row")
struct IssuerContentTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Replaces the sample's element of the same identifier; nil removes it.
        let country: String?
        let jurisdiction: String?
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "both match", country: "US", jurisdiction: "US-CA", expect: ["pass"]),
        Row(name: "another country", country: "CA", jurisdiction: "US-CA", expect: ["fail issuer.content_mismatch"]),
        Row(name: "another jurisdiction", country: "US", jurisdiction: "US-NY", expect: ["fail issuer.content_mismatch"]),
        Row(name: "both differ", country: "CA", jurisdiction: "CA-ON", expect: ["fail issuer.content_mismatch", "fail issuer.content_mismatch"]),
        Row(name: "country only", country: "US", jurisdiction: nil, expect: ["pass"]),
        Row(name: "neither disclosed", country: nil, jurisdiction: nil, expect: ["skip"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.cached("content \(row.country ?? "-") \(row.jurisdiction ?? "-")") {
            try CheckFixture.parse { options in
                var content = SampleContent.elements(for: DocType.mDL, at: CheckFixture.time) ?? []
                content.removeAll { $0.nameSpace == NameSpace.mDL && ($0.identifier == "issuing_country" || $0.identifier == "issuing_jurisdiction") }
                if let country = row.country { content.append(DataElement(NameSpace.mDL, "issuing_country", .text(country))) }
                if let jurisdiction = row.jurisdiction { content.append(DataElement(NameSpace.mDL, "issuing_jurisdiction", .text(jurisdiction))) }
                options.content = content
            }
        }
        let result = CheckFixture.run(.issuerContent, on: parsed, facts: CheckFixture.facts(parsed, [.documentSigner]))
        #expect(result.lines == row.expect, "\(result.details)")
    }

    @Test("a document signer without countryName cannot be compared with issuing_country: a warning, not a pass; ST still compares")
    func signerWithoutCountry() throws {
        let parsed = try CheckFixture.mDL()
        let key = try PrivateKey.generate(.p256)
        let signer = try CertificateBuilder(subject: [("ST", "US-CA"), ("CN", "No Country DS")], notBefore: CheckFixture.time - 86_400,
                                            notAfter: CheckFixture.time + 86_400, publicKey: key.publicKey).sign(issuer: nil, issuerKey: key)
        var facts = CheckFixture.facts(parsed, [])
        facts.establish(.documentSigner, X5Chain(signer: signer))
        let result = CheckFixture.run(.issuerContent, on: parsed, facts: facts)
        #expect(result.lines == ["warn"], "\(result.details)")
        #expect(result.details == ["document signer has no countryName to compare issuing_country with"])
    }
}
