import CBOR
import Testing

/// The part writers produce exactly what `CBOREncoder.encode` produces for the same value, at every head length.
@Suite struct EncoderPartsTests {
    /// Lengths on both sides of each head-size boundary (1, 2, 3 and 5 head bytes).
    static let lengths = [0, 1, 23, 24, 255, 256, 65_535, 65_536]

    @Test(arguments: lengths)
    func byteStrings(length: Int) {
        let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0) }
        var out: [UInt8] = []
        CBOREncoder.appendByteString(bytes[...], to: &out)
        #expect(out == CBOREncoder.encode(.bytes(bytes)))
        var head: [UInt8] = []
        CBOREncoder.appendByteStringHead(count: length, to: &head)
        #expect(head + bytes == out)
    }

    @Test(arguments: lengths)
    func texts(length: Int) {
        let text = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "a" : "")
        var out: [UInt8] = []
        CBOREncoder.appendText(text, to: &out)
        #expect(out == CBOREncoder.encode(.text(text)))
    }

    @Test(arguments: [0, 4, 23, 24, 300])
    func arraysAndTags(count: Int) {
        var out: [UInt8] = []
        CBOREncoder.appendTagHead(24, to: &out)
        CBOREncoder.appendArrayHead(count: count, to: &out)
        for index in 0 ..< count { out += CBOREncoder.encode(.unsigned(UInt64(index))) }
        #expect(out == CBOREncoder.encode(.tagged(24, .array((0 ..< count).map { .unsigned(UInt64($0)) }))))
    }
}
