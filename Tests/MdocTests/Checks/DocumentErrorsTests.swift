import CBOR
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `document.errors` alone: a document's `errors` (elements the wallet could not return) are reported as a warning.
@Suite("document.errors: the wallet's per-document errors are reported, per row")
struct DocumentErrorsTests {
    /// The kit's mDL document with an `errors` entry added (`{namespace: {element: code}}`), parsed.
    static func withErrors(_ errors: CBORValue) throws -> CheckFixture.Parsed {
        let parsed = try CheckFixture.mDL()
        let simulated = try MdocSimulator(pki: parsed.pki).simulate(
            .deviceResponse(CheckFixture.transcript), options: { var options = SimulationOptions(time: CheckFixture.time); options.statusList = nil; return options }())
        let response = try DeviceResponse(CBORDecoder.decode(simulated.deviceResponse))
        let map = try #require(response.documents.first?.map)
        try #require(map.count < 23)
        var bytes: [UInt8] = [0xA0 + UInt8(map.count + 1)]
        for position in 0..<map.count {
            bytes += map.key(position).raw
            bytes += map.value(position).raw
        }
        bytes += CBOREncoder.encode(.text("errors")) + CBOREncoder.encode(errors)
        let document = try MdocDocument(CBORDecoder.decode(bytes))
        return CheckFixture.Parsed(pki: parsed.pki, document: document, mso: parsed.mso, x5chain: parsed.x5chain,
                                   trustedChain: parsed.trustedChain)
    }

    @Test("no errors: pass")
    func none() throws {
        let parsed = try CheckFixture.mDL()
        let result = CheckFixture.run(.documentErrors, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(result.lines == ["pass"])
    }

    @Test("errors: one warning naming each element and its code", arguments: [
        (CBORValue.map([(.text(NameSpace.mDL), .map([(.text("portrait"), .unsigned(0))]))]), "org.iso.18013.5.1/portrait (code 0)"),
        (CBORValue.map([(.text(NameSpace.mDL), .map([(.text("portrait"), .unsigned(0)), (.text("signature_usual_mark"), .unsigned(1))]))]),
         "org.iso.18013.5.1/portrait (code 0), org.iso.18013.5.1/signature_usual_mark (code 1)"),
    ])
    func errors(errors: CBORValue, named: String) throws {
        let parsed = try Self.withErrors(errors)
        let result = CheckFixture.run(.documentErrors, on: parsed, facts: CheckFixture.facts(parsed, []))
        #expect(result.lines == ["warn"])
        #expect(result.details == ["the wallet did not return: \(named)"])
    }
}
