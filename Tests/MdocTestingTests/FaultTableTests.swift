import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import Testing
import Verifier

/// Every fault × every format it applies to → the verifier's verdict is exactly the fault's expected code
/// (or still verified, for the encodings a verifier must accept). Each row would fail if its fault were not
/// applied: an unfaulted response verifies (see `PositiveVariantTests`), and every coded row demands a rejection.
@Suite("MdocTesting: fault table")
struct FaultTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let fault: Fault
        let format: ResponseFormat
        var testDescription: String { "\(fault.name) (\(format.rawValue))" }
    }

    static let rows: [Row] = Fault.allCases.flatMap { fault in
        [ResponseFormat.appleApp, .annexC, .deviceResponse].filter { fault.formats.contains($0) }.map { Row(fault: fault, format: $0) }
    }

    @Test("fault → expected code", arguments: rows)
    func row(_ row: Row) throws {
        let expected = ExpectedOutcome.forFaults([row.fault], format: row.format)
        if let code = row.fault.expectedCode(format: row.format) {
            #expect(expected == .rejected(code))
        } else {
            #expect(expected == .verified)
        }
        let result = try SimulatedCase(faults: [row.fault], format: row.format, time: Fixtures.time).run()
        #expect(result.expected == expected)
        #expect(result.response.expected == expected)
        #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("document-signer-no-key-usage: a warning under the default profile, issuer.certificate_profile under strict")
    func noKeyUsageByProfile() throws {
        let lenient = try SimulatedCase(faults: [.documentSignerNoKeyUsage], time: Fixtures.time).run()
        #expect(lenient.failure == nil, "\(lenient.failure ?? "")")
        #expect(lenient.report.checks.contains { $0.id == "issuer.certificate_profile" && $0.status == .warn })
        let strict = try SimulatedCase(faults: [.documentSignerNoKeyUsage], profile: .strict, time: Fixtures.time).run()
        #expect(strict.expected == .rejected(.issuerCertificateProfile))
        #expect(strict.failure == nil, "\(strict.failure ?? "")")
    }

    @Test("the faults that must still verify change the bytes: non-shortest heads and unknown keys are really there")
    func encodingFaultsAreApplied() throws {
        let (request, _) = try Fixtures.appleRequest()
        let simulator = try MdocSimulator(seed: 1, at: Fixtures.time)
        let plain = try simulator.simulate(.appleApp(request), options: Fixtures.options())
        let loose = try simulator.simulate(.appleApp(request), options: Fixtures.options([.nonShortestCBOR]))
        #expect(!plain.deviceResponse.starts(with: [0xb9, 0x00]))
        #expect(loose.deviceResponse.starts(with: [0xb9, 0x00, 0x03]))
        let mso = try Fixtures.mso(ofDeviceResponse: loose.deviceResponse)
        #expect(mso.raw.starts(with: [0xb9, 0x00, 0x06]))
        let item = try #require(CBORDecoder.decode(loose.deviceResponse)["documents"]?.array?.first?["issuerSigned"]?["nameSpaces"]?[NameSpace.mDL]?.array?.first)
        let inner = try item.decodeEmbedded()
        #expect(inner.inner.starts(with: [0xb9, 0x00, 0x04]))
        #expect(inner.item["digestID"]?.raw.first == 0x18)

        let extra = try simulator.simulate(.appleApp(request), options: Fixtures.options([.unknownMapKeys]))
        let marker = Array("x-mdoc-testing".utf8)
        func count(_ bytes: [UInt8]) -> Int {
            (0 ... bytes.count - marker.count).filter { bytes[$0 ..< $0 + marker.count].elementsEqual(marker) }.count
        }
        #expect(count(plain.deviceResponse) == 0)
        // DeviceResponse, Document, MSO and each of the 32 IssuerSignedItems.
        #expect(count(extra.deviceResponse) == 35)
        let envelope = try CBORDecoder.decode(extra.bytes)
        #expect(envelope["x-mdoc-testing"] != nil && envelope["params"]?["x-mdoc-testing"] != nil)
    }

    @Test("every fault has a unique command-line name that parses back, a description and at least one format")
    func catalogue() {
        #expect(Set(Fault.allCases.map(\.name)).count == Fault.allCases.count)
        for fault in Fault.allCases {
            #expect(Fault(name: fault.name) == fault)
            #expect(!fault.summary.isEmpty)
            #expect(!fault.formats.isEmpty)
        }
        #expect(Fault(name: "no-such-fault") == nil)
        #expect(Fault.allCases.filter { $0.expectedCode(format: .appleApp) == nil } == [.documentSignerNoKeyUsage, .nonShortestCBOR, .unknownMapKeys])
    }
}
