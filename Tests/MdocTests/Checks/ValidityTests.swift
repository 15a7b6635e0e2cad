import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `mso.validity` and `mso.signedWithinCertificate` alone, on the kit's parsed mDL: the verification time walks across
/// validFrom and validUntil with and without clock skew; built MSOs cover the malformed orders.
@Suite("mso.validity: validFrom ≤ now ≤ validUntil within the clock skew, per row")
struct ValidityTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// The verification time, from the fixture MSO's validity.
        let at: @Sendable (MobileSecurityObject.ValidityInfo) -> Date
        var skew: TimeInterval = 60
        let expect: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "inside the period", at: { $0.validFrom + 3600 }, expect: ["pass"]),
        Row(name: "exactly validFrom", at: { $0.validFrom }, expect: ["pass"]),
        Row(name: "validFrom − skew (the skew covers it)", at: { $0.validFrom - 60 }, expect: ["pass"]),
        Row(name: "validFrom − skew − 1 s", at: { $0.validFrom - 61 }, expect: ["fail mso.not_yet_valid"]),
        Row(name: "validFrom − 1 s without skew", at: { $0.validFrom - 1 }, skew: 0, expect: ["fail mso.not_yet_valid"]),
        Row(name: "exactly validUntil", at: { $0.validUntil }, expect: ["pass"]),
        Row(name: "validUntil + skew (the skew covers it)", at: { $0.validUntil + 60 }, expect: ["pass"]),
        Row(name: "validUntil + skew + 1 s", at: { $0.validUntil + 61 }, expect: ["fail mso.expired"]),
        Row(name: "validUntil + 1 s without skew", at: { $0.validUntil + 1 }, skew: 0, expect: ["fail mso.expired"]),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let parsed = try CheckFixture.mDL()
        let time = row.at(parsed.mso.validityInfo)
        let result = CheckFixture.run(.msoValidity, on: parsed, facts: CheckFixture.facts(parsed, [.mso]), at: time,
                                      options: MdocVerificationOptions(clockSkew: row.skew))
        #expect(result.lines == row.expect, "\(result.details)")
    }

    @Test("validFrom not before validUntil, or before signed: mso.malformed whatever the time")
    func malformedOrder() throws {
        let parsed = try CheckFixture.mDL()
        let now = CheckFixture.time
        let empty = try CheckFixture.mso(signed: now - 60, validFrom: now, validUntil: now)
        let early = try CheckFixture.mso(signed: now, validFrom: now - 60, validUntil: now + 3600)
        for mso in [empty, early] {
            let result = CheckFixture.run(.msoValidity, on: parsed, facts: CheckFixture.facts(parsed, [.mso], mso: mso))
            #expect(result.lines == ["fail mso.malformed"], "\(result.details)")
        }
    }

    @Test("without the MSO the check is skipped, naming the fact and mso.decode")
    func skip() throws {
        let parsed = try CheckFixture.mDL()
        let result = CheckFixture.run(.msoValidity, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(result.lines == ["skip"])
        #expect(result.details == ["needs the MSO, which mso.decode did not establish"])
    }

    @Test("signed inside the document signer's validity passes; one second outside fails", arguments: [
        (0.0, "pass"), (-1.0, "fail issuer.certificate_expired"),
    ])
    func signedWithinCertificate(offset: TimeInterval, expect: String) throws {
        let parsed = try CheckFixture.mDL()
        let notBefore = parsed.x5chain.signer.notBefore
        let mso = try CheckFixture.mso(signed: notBefore + offset, validFrom: notBefore + 60, validUntil: notBefore + 3600)
        let result = CheckFixture.run(.msoSignedWithinCertificate, on: parsed,
                                      facts: CheckFixture.facts(parsed, [.mso, .documentSigner], mso: mso))
        #expect(result.lines == [expect], "\(result.details)")
        let withoutSigner = CheckFixture.run(.msoSignedWithinCertificate, on: parsed, facts: CheckFixture.facts(parsed, [.mso], mso: mso))
        #expect(withoutSigner.details == ["needs the document signer certificate, which issuer.x5chain did not establish"])
    }
}
