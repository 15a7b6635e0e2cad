import TestSupport
import Testing
@testable import CBOR

/// Every initial byte is classified as RFC 8949 says, including heads that libcbor 0.8
/// rejects although they are well-formed (one-byte tags 6–20, simple values).
@Suite("Initial bytes")
struct InitialByteTests {
    /// RFC 8949 Appendix C: a head is ill-formed with additional information 28–30, with 31
    /// on major types 0, 1 and 6, as a lone `break`, or as a two-byte simple value below 32.
    private func isIllFormedHead(_ initial: UInt8, followedBy next: UInt8?) -> Bool {
        let major = initial >> 5
        let info = initial & 0x1F
        if (28...30).contains(info) { return true }
        if info == 31 && [0, 1, 6].contains(major) { return true }
        if initial == 0xFF { return true }
        if initial == 0xF8, let next { return next < 32 }
        return false
    }

    @Test func malformedExactlyWhenTheHeadIsIllFormed() {
        for initial in UInt8.min...UInt8.max {
            for padding in 0...9 {
                let bytes = [initial] + [UInt8](repeating: 0, count: padding)
                let malformedAtStart = decodingError(bytes) == CBORDecodingError(.malformed, offset: 0)
                let expected = isIllFormedHead(initial, followedBy: padding > 0 ? 0 : nil)
                if malformedAtStart != expected {
                    Issue.record("initial byte \(initial) with \(padding) zero bytes: malformed=\(malformedAtStart)")
                }
            }
        }
    }

    @Test func oneByteTagsSixToTwenty() throws {
        for tag in UInt64(6)...20 {
            let bytes = [0xC0 | UInt8(tag), 0x01]
            let item = try CBORDecoder.decode(bytes)
            #expect(item.tag?.tag == tag)
            #expect(item.tag?.item.byteRange == 1..<2)
            #expect(CBOREncoder.encode(item.toValue()) == bytes)
        }
        // A tagged COSE_Sign1 (tag 18): [h'a10126', {}, null, h'']
        let sign1 = try CBORDecoder.decode(hex("d2 84 43a10126 a0 f6 40"))
        #expect(sign1.tag?.tag == 18)
        #expect(sign1.tag?.item.array?.count == 4)
        #expect(sign1.diagnostic() == "18([h'a10126', {}, null, h''])")
    }

    @Test func everyTagNumberRoundTrips() throws {
        for tag in [UInt64](0...30) + [255, 256, 65535, 65536, 1004, 0xFFFF_FFFF, .max] {
            let bytes = CBOREncoder.encode(.tagged(tag, .null))
            #expect(try CBORDecoder.decode(bytes).tag?.tag == tag)
        }
    }

    @Test func everySimpleValue() throws {
        for value in UInt8.min...UInt8.max where !(20...31).contains(value) {
            let bytes = CBOREncoder.encode(.simple(value))
            let item = try CBORDecoder.decode(bytes)
            #expect(item.toValue() == .simple(value))
            #expect(item.byteRange == 0..<bytes.count)
        }
        #expect(try CBORDecoder.decode([0xF4]).toValue() == .bool(false))
        #expect(try CBORDecoder.decode([0xF7]).toValue() == .undefined)
    }
}
