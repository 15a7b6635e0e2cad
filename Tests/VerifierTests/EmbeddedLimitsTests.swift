import CBOR
import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Testing
import Verifier

/// A caller's `VerifierConfiguration.cborLimits` hold inside a response, not only over its outer bytes: the
/// IssuerSignedItems and the MSO embedded in it are decoded within them. Each row is over one limit only inside.
@Suite("Caller's CBOR limits inside a response")
struct EmbeddedLimitsTests {
    static let time = RFC3339.parseDateTime("2026-06-01T12:00:00Z") ?? Date(timeIntervalSince1970: 1_780_315_200)
    static let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("EmbeddedLimitsTests")])]))

    static func verify(_ options: SimulationOptions, limits: CBORLimits) throws -> VerificationReport {
        let pki = try TestPKI.shared(seed: 61, at: time)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        return DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [pki.iaca]),
                                                                           cborLimits: limits, revocation: .off))
            .verify(deviceResponse: response.bytes, transcript: transcript, at: time)
    }

    @Test("an element value nested deeper than maxDepth inside its IssuerSignedItem: document.structure fails")
    func deepElement() throws {
        var options = SimulationOptions(time: Self.time)
        options.statusList = nil
        var deep = CBORValue.unsigned(1)
        for _ in 0..<12 { deep = .array([deep]) }
        options.content = [DataElement(NameSpace.mDL, "family_name", .text("Doe")), DataElement(NameSpace.mDL, "org_example_deep", deep)]
        #expect(try Self.verify(options, limits: .default).verified)
        // The outer response nests about 8 deep; the element 13 inside its item.
        let tight = try Self.verify(options, limits: CBORLimits(maxDepth: 10))
        #expect(tight.checks.contains { $0.id == .documentStructure && $0.status == .fail && $0.detail.contains("maxDepth") },
                "\(tight.checks.map { "\($0.id) \($0.status) \($0.detail)" })")
    }

    @Test("an MSO namespace with more digests than maxItemsPerContainer: mso.decode fails, though no outer container is that large")
    func wideMSO() throws {
        var options = SimulationOptions(time: Self.time)
        options.statusList = nil
        options.content = (0..<8).map { DataElement(NameSpace.mDL, "org_example_\($0)", .unsigned(UInt64($0))) }
        options.decoysPerNameSpace = 6
        #expect(try Self.verify(options, limits: .default).verified)
        // 8 items in the namespace's array, 14 digests in the MSO's map for it.
        let tight = try Self.verify(options, limits: CBORLimits(maxItemsPerContainer: 10))
        #expect(tight.checks.contains { $0.id == .msoDecode && $0.status == .fail && $0.detail.contains("maxItemsPerContainer") },
                "\(tight.checks.map { "\($0.id) \($0.status) \($0.detail)" })")
    }
}
