import TestSupport
import Testing
@testable import CBOR

/// RFC 8949 Appendix A examples.
struct AppendixAVector: Sendable, CustomTestStringConvertible {
    let hex: String
    let value: CBORValue
    /// Preferred serialization of `value`; nil when `hex` already is (the usual case).
    let preferred: String?
    /// Whether `hex` is the preferred serialization (false for indefinite lengths and
    /// non-preferred floats).
    let isPreferred: Bool
    var testDescription: String { hex }

    init(_ hex: String, _ value: CBORValue, preferred: String? = nil, indefinite: Bool = false) {
        self.hex = hex
        self.value = value
        self.preferred = preferred
        self.isPreferred = preferred == nil && !indefinite
    }
}

private let oneTo25: [CBORValue] = (1...25).map { .unsigned(UInt64($0)) }

let appendixA: [AppendixAVector] = [
    .init("00", .unsigned(0)),
    .init("01", .unsigned(1)),
    .init("0a", .unsigned(10)),
    .init("17", .unsigned(23)),
    .init("1818", .unsigned(24)),
    .init("1819", .unsigned(25)),
    .init("1864", .unsigned(100)),
    .init("1903e8", .unsigned(1000)),
    .init("1a000f4240", .unsigned(1_000_000)),
    .init("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
    .init("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)),
    .init("c249010000000000000000", .tagged(2, .bytes(hex("010000000000000000")))),
    .init("3bffffffffffffffff", .negative(18_446_744_073_709_551_615)),  // -18446744073709551616
    .init("c349010000000000000000", .tagged(3, .bytes(hex("010000000000000000")))),
    .init("20", .int(-1)),
    .init("29", .int(-10)),
    .init("3863", .int(-100)),
    .init("3903e7", .int(-1000)),
    .init("f90000", .float(0.0)),
    .init("f98000", .float(-0.0)),
    .init("f93c00", .float(1.0)),
    .init("fb3ff199999999999a", .float(1.1)),
    .init("f93e00", .float(1.5)),
    .init("f97bff", .float(65504.0)),
    .init("fa47c35000", .float(100_000.0)),
    .init("fa7f7fffff", .float(3.4028234663852886e+38)),
    .init("fb7e37e43c8800759c", .float(1.0e+300)),
    .init("f90001", .float(5.960464477539063e-8)),
    .init("f90400", .float(0.00006103515625)),
    .init("f9c400", .float(-4.0)),
    .init("fbc010666666666666", .float(-4.1)),
    .init("f97c00", .float(.infinity)),
    .init("f97e00", .float(.nan)),
    .init("f9fc00", .float(-.infinity)),
    .init("fa7f800000", .float(.infinity), preferred: "f97c00"),
    .init("fa7fc00000", .float(.nan), preferred: "f97e00"),
    .init("faff800000", .float(-.infinity), preferred: "f9fc00"),
    .init("fb7ff0000000000000", .float(.infinity), preferred: "f97c00"),
    .init("fb7ff8000000000000", .float(.nan), preferred: "f97e00"),
    .init("fbfff0000000000000", .float(-.infinity), preferred: "f9fc00"),
    .init("f4", .bool(false)),
    .init("f5", .bool(true)),
    .init("f6", .null),
    .init("f7", .undefined),
    .init("f0", .simple(16)),
    .init("f8ff", .simple(255)),
    .init("c074323031332d30332d32315432303a30343a30305a", .tagged(0, .text("2013-03-21T20:04:00Z"))),
    .init("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))),
    .init("c1fb41d452d9ec200000", .tagged(1, .float(1_363_896_240.5))),
    .init("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
    .init("d818456449455446", .tagged(24, .bytes(hex("6449455446")))),
    .init("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, .text("http://www.example.com"))),
    .init("40", .bytes([])),
    .init("4401020304", .bytes([1, 2, 3, 4])),
    .init("60", .text("")),
    .init("6161", .text("a")),
    .init("6449455446", .text("IETF")),
    .init("62225c", .text("\"\\")),
    .init("62c3bc", .text("\u{00fc}")),
    .init("63e6b0b4", .text("\u{6c34}")),
    .init("64f0908591", .text("\u{10151}")),
    .init("80", .array([])),
    .init("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
    .init("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
    .init("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array(oneTo25)),
    .init("a0", .map([])),
    .init("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
    .init("a26161016162820203", .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
    .init("826161a161626163", .array([.text("a"), .map([(.text("b"), .text("c"))])])),
    .init("a56161614161626142616361436164614461656145", .map([
        (.text("a"), .text("A")), (.text("b"), .text("B")), (.text("c"), .text("C")),
        (.text("d"), .text("D")), (.text("e"), .text("E")),
    ])),
    .init("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), indefinite: true),
    .init("7f657374726561646d696e67ff", .text("streaming"), indefinite: true),
    .init("9fff", .array([]), indefinite: true),
    .init("9f018202039f0405ffff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), indefinite: true),
    .init("9f01820203820405ff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), indefinite: true),
    .init("83018202039f0405ff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), indefinite: true),
    .init("83019f0203ff820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), indefinite: true),
    .init("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array(oneTo25), indefinite: true),
    .init("bf61610161629f0203ffff", .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))]), indefinite: true),
    .init("826161bf61626163ff", .array([.text("a"), .map([(.text("b"), .text("c"))])]), indefinite: true),
    .init("bf6346756ef563416d7421ff", .map([(.text("Fun"), .bool(true)), (.text("Amt"), .int(-2))]), indefinite: true),
]

@Suite("RFC 8949 Appendix A")
struct AppendixATests {
    @Test("decodes to the expected value, covering all input bytes", arguments: appendixA)
    func decodes(_ vector: AppendixAVector) throws {
        let bytes = hex(vector.hex)
        let item = try CBORDecoder.decode(bytes)
        #expect(item.toValue() == vector.value)
        #expect(item.byteRange == 0..<bytes.count)
        #expect(Array(item.raw) == bytes)
    }

    @Test("re-encodes to the preferred serialization", arguments: appendixA)
    func reencodes(_ vector: AppendixAVector) throws {
        let bytes = hex(vector.hex)
        let encoded = CBOREncoder.encode(vector.value)
        if vector.isPreferred {
            #expect(hexString(encoded) == vector.hex)
            #expect(CBOREncoder.encode(try CBORDecoder.decode(bytes).toValue()) == bytes)
        } else if let preferred = vector.preferred {
            #expect(hexString(encoded) == preferred)
        } else {
            // Indefinite lengths re-encode as definite, and that must decode to the same value.
            #expect(try CBORDecoder.decode(encoded).toValue() == vector.value)
        }
    }

    @Test func appendixACountsAllExamples() {
        #expect(appendixA.count == 81)
        #expect(appendixA.filter(\.isPreferred).count == 64)
    }

    @Test func integerExtremesAndSigns() throws {
        let max = try CBORDecoder.decode(hex("1bffffffffffffffff"))
        #expect(max.uint == .max)
        #expect(max.int == nil)
        let min = try CBORDecoder.decode(hex("3bffffffffffffffff"))
        if case .negative(let n) = min.value { #expect(n == .max) } else { Issue.record("not negative") }
        #expect(min.int == nil)
        #expect(min.diagnostic() == "-18446744073709551616")
        #expect(try CBORDecoder.decode(hex("3b7fffffffffffffff")).int == .min)
        #expect(try CBORDecoder.decode(hex("3903e7")).int == -1000)
        #expect(try CBORDecoder.decode(hex("1b7fffffffffffffff")).int == .max)
        #expect(try CBORDecoder.decode(hex("1b8000000000000000")).int == nil)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let item = try CBORDecoder.decode(hex("f98000"))
        #expect(item.float == 0)
        #expect(item.float?.sign == .minus)
    }

    @Test func accessorsOnAppendixMaps() throws {
        let item = try CBORDecoder.decode(hex("a26161016162820203"))
        #expect(item["a"]?.uint == 1)
        #expect(item["b"]?.array?.count == 2)
        #expect(item["c"] == nil)
        let intKeys = try CBORDecoder.decode(hex("a201020304"))
        #expect(intKeys[intKey: 3]?.int == 4)
        #expect(intKeys[intKey: 2] == nil)
        #expect(intKeys.map?.count == 2)
        let tagged = try CBORDecoder.decode(hex("c11a514b67b0"))
        #expect(tagged.tag?.tag == 1)
        #expect(tagged.tag?.item.uint == 1_363_896_240)
        #expect(try CBORDecoder.decode(hex("f6")).isNull)
        #expect(try CBORDecoder.decode(hex("f5")).bool == true)
        #expect(try CBORDecoder.decode(hex("6449455446")).text == "IETF")
        #expect(try CBORDecoder.decode(hex("4401020304")).bytes.map(Array.init) == [1, 2, 3, 4])
    }
}
