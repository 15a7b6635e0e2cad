import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
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

/// The text ceiling (Annex C, OpenID4VP): 4/3 of `maxInputBytes` plus 4 KiB, on the posted text's own UTF-8 bytes,
/// whatever it wraps.
@Suite("Text input ceiling through the pipeline")
struct TextInputCeilingTests {
    static let limit = CBORLimits.default.maxInputBytes / 3 * 4 + 4096

    static func sizeCheck(_ report: VerificationReport) -> CheckResult? { report.checks.first { $0.id == .inputSize } }

    @Test("openid4vp: a kit answer padded to the ceiling verifies; one byte more is input.malformed naming both sizes")
    func openID4VPAtAndPast() throws {
        #expect(Self.limit == 5_596_500)
        let item = try OpenID4VPRejectionTests.answer()
        let padding = Self.limit - item.posted.utf8.count
        let at = OpenID4VPRejectionTests.verify(item.posted + String(repeating: " ", count: padding), item)
        #expect(at.verified, "\(at.errors)")
        #expect(Self.sizeCheck(at)?.detail == "5596500 bytes of text, within the 5596500-byte limit")

        let past = OpenID4VPRejectionTests.verify(item.posted + String(repeating: " ", count: padding + 1), item)
        #expect(past.errors.map(\.code) == [.inputMalformed])
        #expect(past.errors.first?.message.hasPrefix("the response is 5596501 bytes of text; the limit is 5596500 ") == true,
                "\(past.errors)")
    }

    @Test("openid4vp: the count is UTF-8 bytes, not characters or three quarters of them")
    func openID4VPCountsBytes() throws {
        let item = try OpenID4VPRejectionTests.answer()
        // 6,000,000 characters: once read as 4,500,000 "bytes" and let through.
        let ascii = OpenID4VPRejectionTests.verify(String(repeating: "a", count: 6_000_000), item)
        #expect(ascii.errors.first?.message.hasPrefix("the response is 6000000 bytes of text; the limit is 5596500") == true, "\(ascii.errors)")
        // Fewer characters than the limit, more bytes.
        let text = String(repeating: "é", count: Self.limit / 2 + 1)
        #expect(text.count < Self.limit)
        let wide = OpenID4VPRejectionTests.verify(text, item)
        #expect(wide.errors.map(\.code) == [.inputMalformed])
        #expect(wide.errors.first?.message.hasPrefix("the response is \(text.utf8.count) bytes of text") == true, "\(wide.errors)")
    }

    @Test("annex-c: the same ceiling on the text's bytes")
    func annexC() throws {
        let verifier = AnnexCVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])))
        let key = try PrivateKey.generate(.p256)
        let info = AnnexCEncryptionInfo(nonce: [UInt8](repeating: 7, count: 16), recipientPublicKey: key.publicKey)
        let session = AnnexCSession(privateKey: key, encryptionInfo: info.base64URL, origin: "https://verifier.example", request: nil)
        func report(_ count: Int) -> VerificationReport {
            verifier.verify(response: String(repeating: "A", count: count), session: session, at: Date(timeIntervalSince1970: 1_780_315_200))
        }
        #expect(Self.sizeCheck(report(Self.limit))?.status == .pass)
        let past = report(Self.limit + 1)
        #expect(past.errors.first?.message.hasPrefix("the response is 5596501 bytes of text; the limit is 5596500") == true, "\(past.errors)")
    }
}
