import TestSupport
import Testing
@testable import CBOR

@Suite("Encoder")
struct EncoderTests {
    @Test func shortestHeads() {
        let cases: [(UInt64, String)] = [
            (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"),
            (65536, "1a00010000"), (0xFFFF_FFFF, "1affffffff"), (0x1_0000_0000, "1b0000000100000000"),
        ]
        for (value, expected) in cases {
            #expect(hexString(CBOREncoder.encode(.unsigned(value))) == expected)
        }
        #expect(hexString(CBOREncoder.encode(.bytes([UInt8](repeating: 0, count: 24)))).hasPrefix("5818"))
        #expect(hexString(CBOREncoder.encode(.text(String(repeating: "x", count: 300)))).hasPrefix("79012c"))
    }

    @Test func integersFromInt64() {
        #expect(CBOREncoder.encode(.int(0)) == [0x00])
        #expect(CBOREncoder.encode(.int(-1)) == [0x20])
        #expect(CBOREncoder.encode(.int(-7)) == [0x26])
        #expect(hexString(CBOREncoder.encode(.int(.min))) == "3b7fffffffffffffff")
        #expect(hexString(CBOREncoder.encode(.int(.max))) == "1b7fffffffffffffff")
        #expect(CBORValue.int(-25) == .negative(24))
    }

    @Test func shortestFloats() {
        #expect(CBOREncoder.halfBits(exactly: 65504) == 0x7BFF)
        #expect(CBOREncoder.halfBits(exactly: 65505) == nil)
        #expect(CBOREncoder.halfBits(exactly: 65536) == nil)
        #expect(CBOREncoder.halfBits(exactly: 0x1p-24) == 0x0001)
        #expect(CBOREncoder.halfBits(exactly: -0x1p-24) == 0x8001)
        #expect(CBOREncoder.halfBits(exactly: 0x1p-25) == nil)
        #expect(CBOREncoder.halfBits(exactly: 0x1.8p-24) == nil)
        #expect(CBOREncoder.halfBits(exactly: 0x3FFp-24) == 0x03FF)
        #expect(CBOREncoder.halfBits(exactly: 0x1p-14) == 0x0400)
        #expect(CBOREncoder.halfBits(exactly: 1.0 / 3) == nil)
        #expect(hexString(CBOREncoder.encode(.float(0.5))) == "f93800")
        #expect(hexString(CBOREncoder.encode(.float(Double(Float(0.1))))) == "fa3dcccccd")
        #expect(hexString(CBOREncoder.encode(.float(0.1))) == "fb3fb999999999999a")
        #expect(hexString(CBOREncoder.encode(.float(-.nan))) == "f97e00")
        #expect(hexString(CBOREncoder.encode(.float(Double(bitPattern: 0x7FF0_0000_0000_0001)))) == "f97e00")
    }

    @Test func halfFloatsRoundTripThroughTheDecoder() throws {
        // Every finite half value decodes and re-encodes to the same two bytes.
        for bits in UInt16(0)...UInt16(0xFFFF) where bits & 0x7C00 != 0x7C00 {
            let bytes: [UInt8] = [0xF9, UInt8(bits >> 8), UInt8(bits & 0xFF)]
            let value = try CBORDecoder.decode(bytes).toValue()
            #expect(CBOREncoder.encode(value) == bytes)
        }
    }

    @Test func simpleValues() {
        #expect(CBOREncoder.encode(.simple(16)) == [0xF0])
        #expect(CBOREncoder.encode(.simple(32)) == [0xF8, 0x20])
        #expect(CBOREncoder.encode(.bool(false)) == [0xF4])
        #expect(CBOREncoder.encode(.null) == [0xF6])
        #expect(CBOREncoder.encode(.undefined) == [0xF7])
    }

    @Test func mapOrderIsKeptUnlessSorted() {
        let map: CBORValue = .map([
            (.text("b"), .unsigned(1)), (.text("a"), .unsigned(2)), (.int(10), .unsigned(3)), (.int(-1), .unsigned(4)),
            (.text("aa"), .map([(.text("z"), .null), (.text("y"), .null)])),
        ])
        #expect(hexString(CBOREncoder.encode(map)) == "a5616201616102" + "0a03" + "2004" + "626161a2617af66179f6")
        // Sorted bytewise by encoded key at every level: 0a, 20, 6161, 6162, 626161.
        #expect(hexString(CBOREncoder.encode(map, sortMapKeys: true))
                == "a5" + "0a03" + "2004" + "616102" + "616201" + "626161a26179f6617af6")
    }

    @Test func embeddedAndSplicedValues() throws {
        #expect(hexString(CBOREncoder.encode(.embedded(.int(1)))) == "d8184101")
        let transcript: CBORValue = .array([.null, .encoded(hex("b90000")), .embedded(.text("x"))])
        let bytes = CBOREncoder.encode(transcript)
        #expect(hexString(bytes) == "83f6b90000d818426178")
        let item = try CBORDecoder.decode(bytes)
        #expect(try item.array?[2].decodeEmbedded().item.text == "x")
        // toValue drops the non-minimal head; asValue keeps it.
        #expect(CBOREncoder.encode(item.toValue()) == hex("83f6a0d818426178"))
        #expect(CBOREncoder.encode(item.asValue) == bytes)
    }

    @Test func valueEquality() {
        #expect(CBORValue.float(.nan) == .float(-.nan))
        #expect(CBORValue.float(0.0) != .float(-0.0))
        #expect(CBORValue.text("\u{E9}") != .text("e\u{301}"))
        #expect(CBORValue.map([(.int(1), .null)]) == .map([(.unsigned(1), .null)]))
        #expect(CBORValue.map([(.int(1), .null)]) != .map([(.int(1), .undefined)]))
        #expect(CBORValue.unsigned(1) != .encoded([0x01]))
    }
}

/// The decoder's UTF-8 check (the C walker's, RFC 3629) against the standard library's, on text strings.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    @Test func agreesWithTheStandardLibrary() {
        var rng = SplitMix64(seed: 7)
        let pool: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                             0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            // Up to 12 bytes, so that some sequences straddle the walker's 8-byte ASCII steps.
            let bytes = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                Bool.random(using: &rng) ? 0x41 : pool.randomElement(using: &rng) ?? 0
            }
            let ours = decodingError([0x60 + UInt8(bytes.count)] + bytes) == nil
            let stdlib = String(validating: bytes, as: UTF8.self) != nil
            #expect(ours == stdlib, "\(hexString(bytes))")
        }
    }

    @Test func reportsTheFirstBadSequence() {
        #expect(decodingError(hex("63 41 42 c3")) == CBORDecodingError(.invalidUTF8, offset: 3))
        #expect(decodingError(hex("64 e2 82 ac 80")) == CBORDecodingError(.invalidUTF8, offset: 4))
        #expect(decodingError(hex("65 f0 9f 98 80 41")) == nil)
    }
}
