import CryptoCore
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `policy.issuer` alone: the anchor of the trusted chain the row gives against the request's allow-list.
@Suite("policy.issuer: the trusted anchor is on the request's allow-list, per row")
struct PolicyIssuerTests {
    enum AllowList: Sendable {
        case empty, anchor, other, anchorAndOther
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let allowList: AllowList
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no allow-list: any trusted issuer", allowList: .empty, expect: ["pass"]),
        Row(name: "the anchor's key identifier", allowList: .anchor, expect: ["pass"]),
        Row(name: "the anchor among others", allowList: .anchorAndOther, expect: ["pass"]),
        Row(name: "another issuer only", allowList: .other, expect: ["fail policy.issuer_not_allowed"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.mDL()
        let anchor = try #require(IssuerIdentifiers.identifier(of: parsed.pki.iaca))
        let other = [UInt8](repeating: 0x5A, count: anchor.count)
        let allowed: [[UInt8]] = switch row.allowList {
        case .empty: []
        case .anchor: [anchor]
        case .other: [other]
        case .anchorAndOther: [other, anchor]
        }
        let request = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [:])], allowedIssuers: allowed)
        let result = CheckFixture.run(.policyIssuer, on: parsed, facts: CheckFixture.facts(parsed, [.requestPolicy, .trustedChain], request: request))
        #expect(result.lines == row.expect, "\(result.details)")
    }

    @Test("a missing fact skips, naming the first one declared: the request, then the trusted chain")
    func skips() throws {
        let parsed = try CheckFixture.mDL()
        let request = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [:])])
        let neither = CheckFixture.run(.policyIssuer, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(neither.details == ["needs the relying party's request, which the caller did not give"])
        let noChain = CheckFixture.run(.policyIssuer, on: parsed, facts: CheckFixture.facts(parsed, [.requestPolicy], request: request))
        #expect(noChain.lines == ["skip"])
        #expect(noChain.details == ["needs a chain to a trusted IACA, which issuer.certificate_chain did not establish"])
    }
}
