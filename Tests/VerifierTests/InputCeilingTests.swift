import CBOR
import CryptoCore
import Foundation
import Mdoc
import Testing
import TestSupport
import Verifier

/// The decoder's ceilings with the production defaults (`CBORLimits.default`), through the pipeline as a caller
/// meets them: over a ceiling is `input.malformed` with a message naming it; at the ceiling the input decodes and
/// is judged on its content instead.
@Suite("Input ceilings through the pipeline")
struct InputCeilingTests {
    static func report(_ bytes: [UInt8]) throws -> VerificationReport {
        DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])))
            .verify(deviceResponse: bytes, transcript: try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes),
                    at: AnnexDVector.validTime)
    }

    /// An array head for `count` entries (uint32 argument) followed by `count` zeros.
    static func array(_ count: Int) -> [UInt8] {
        [0x9A, UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            + [UInt8](repeating: 0, count: count)
    }

    static let limits = CBORLimits.default

    static let over: [(name: String, bytes: [UInt8], message: String)] = [
        ("input size", [0x5A, 0x00, 0x40, 0x00, 0x00] + [UInt8](repeating: 0, count: limits.maxInputBytes),
         "the limit is 4194304 (CBORLimits.maxInputBytes)"),
        ("nesting depth", [UInt8](repeating: 0x81, count: limits.maxDepth + 1) + [0x00], "of 32 (CBORLimits.maxDepth)"),
        ("entries in one container", array(limits.maxItemsPerContainer + 1), "of 65536 (CBORLimits.maxItemsPerContainer)"),
        ("items in the input", [0x82] + array(65_535) + array(65_535), "of 131072 (CBORLimits.maxTotalItems)"),
    ]

    @Test("over a ceiling: input.malformed naming it", arguments: over.indices)
    func overCeiling(index: Int) throws {
        let (name, bytes, message) = Self.over[index]
        let report = try Self.report(bytes)
        let error = try #require(report.primaryError, "\(name) was accepted")
        #expect(error.code == .inputMalformed, "\(name): \(error)")
        #expect(error.message.contains(message), "\(name): \(error.message)")
        #expect(report.documents.isEmpty)
    }

    static let at: [(name: String, bytes: [UInt8])] = [
        ("input size", [0x5A, 0x00, 0x3F, 0xFF, 0xFB] + [UInt8](repeating: 0, count: limits.maxInputBytes - 5)),
        ("nesting depth", [UInt8](repeating: 0x81, count: limits.maxDepth) + [0x00]),
        ("entries in one container", array(limits.maxItemsPerContainer)),
        ("items in the input", [0x82] + array(65_534) + array(65_534)),
    ]

    @Test("at a ceiling: decoded, then refused for what it is (not a DeviceResponse map)", arguments: at.indices)
    func atCeiling(index: Int) throws {
        let (name, bytes) = Self.at[index]
        let error = try #require(try Self.report(bytes).primaryError)
        #expect(error.code == .responseMalformed, "\(name): \(error)")
    }
}
