import TestSupport
import Testing
@testable import CBOR

/// Non-preferred encodings are accepted and every item reports the bytes it was received as.
@Suite("Byte ranges of received items")
struct ByteRangeTests {
    @Test func nonMinimalIntegerKeepsItsBytes() throws {
        let item = try CBORDecoder.decode(hex("1800"))
        #expect(item.uint == 0)
        #expect(item.byteRange == 0..<2)
        let wide = try CBORDecoder.decode(hex("1b0000000000000001"))
        #expect(wide.uint == 1)
        #expect(wide.byteRange == 0..<9)
    }

    @Test func nonMinimalByteStringLength() throws {
        let bytes = hex("5900 01 ff")
        let item = try CBORDecoder.decode(bytes)
        #expect(item.byteRange == 0..<4)
        #expect(item.bytes?.indices == 3..<4)
        #expect(item.bytes.map(Array.init) == [0xFF])
    }

    @Test func nonMinimalMapHeaderAndNestedRanges() throws {
        // {"a": 1 (as 18 01), "b": [1, 2]} with a three-byte map head.
        let bytes = hex("b9 0002 6161 1801 6162 82 01 02")
        let item = try CBORDecoder.decode(bytes)
        let entries = try #require(item.map)
        #expect(entries.count == 2)
        #expect(item.byteRange == 0..<bytes.count)
        #expect(entries[0].key.byteRange == 3..<5)
        #expect(entries[0].value.byteRange == 5..<7)
        #expect(entries[0].value.uint == 1)
        #expect(entries[1].key.byteRange == 7..<9)
        #expect(entries[1].value.byteRange == 9..<12)
        #expect(entries[1].value.array?[1].byteRange == 11..<12)
        // Re-encoding is shorter: hashes must use `raw`, not a re-encoding.
        #expect(CBOREncoder.encode(item.toValue()).count == bytes.count - 3)
        #expect(CBOREncoder.encode(item.asValue) == bytes)
    }

    @Test func embeddedItemOffsetsAreInTheOriginalBuffer() throws {
        // [1, 24(<< {"a": 1} >>)] where the inner map uses a non-minimal head and value.
        let bytes = hex("82 01 d8 18 47 b9 0001 6161 1801")
        let outer = try CBORDecoder.decode(bytes)
        let tagged = try #require(outer.array?[1])
        #expect(tagged.byteRange == 2..<12)
        let embedded = try tagged.decodeEmbedded()
        #expect(embedded.tagged.indices == 2..<12)
        #expect(embedded.inner.indices == 5..<12)
        #expect(embedded.item.byteRange == 5..<12)
        let entry = try #require(embedded.item.map?.first)
        #expect(entry.key.byteRange == 8..<10)
        #expect(entry.value.byteRange == 10..<12)
        #expect(Array(entry.value.raw) == [0x18, 0x01])
        #expect(embedded.item["a"]?.uint == 1)
    }

    @Test("embedded items keep to the limits their container was decoded with, unless given others")
    func embeddedItemsInheritTheLimits() throws {
        // [24(<< [[[1]]] >>)]: depth 1 outside, 3 inside.
        let bytes = hex("81 d8 18 44 81 81 81 01")
        let strict = CBORLimits(maxDepth: 2)
        let outer = try CBORDecoder.decode(bytes, limits: strict)
        let tagged = try #require(outer.array?[0])
        do {
            _ = try tagged.decodeEmbedded()
            Issue.record("the embedded item was decoded past the container's maxDepth")
        } catch let error as CBORDecodingError {
            #expect(error.kind == .depthLimitExceeded)
        }
        #expect(throws: CBORDecodingError.self) { try outer.array?.decodeEachEmbedded() }
        #expect(try tagged.decodeEmbedded(limits: .default).item.array?.count == 1, "explicit limits override")
        #expect(try CBORDecoder.decode(bytes).array?[0].decodeEmbedded().item.array?.count == 1, "the defaults allow it")
    }

    @Test func embeddedIndefiniteByteStringIndexesTheJoinedChunks() throws {
        let bytes = hex("d8 18 5f 41 82 42 0102 ff")
        let embedded = try CBORDecoder.decode(bytes).decodeEmbedded()
        #expect(embedded.tagged.indices == 0..<bytes.count)
        #expect(Array(embedded.inner) == [0x82, 0x01, 0x02])
        #expect(embedded.item.byteRange == 0..<3)
        #expect(embedded.item.toValue() == .array([.unsigned(1), .unsigned(2)]))
    }

    @Test func sliceInputReportsSliceIndices() throws {
        let buffer = hex("ffff 82 1801 6161 ffff")
        let item = try CBORDecoder.decode(buffer[2..<7])
        #expect(item.byteRange == 2..<7)
        #expect(item.array?[0].byteRange == 3..<5)
        #expect(item.array?[1].byteRange == 5..<7)
        #expect(item.array?[1].text == "a")
        #expect(throws: CBORDecodingError(.trailingBytes, offset: 7)) {
            try CBORDecoder.decode(buffer[2..<8])
        }
    }

    @Test func indefiniteContainersCoverTheirBreak() throws {
        let bytes = hex("82 9f 01 ff 5f 41 01 ff")
        let item = try CBORDecoder.decode(bytes)
        #expect(item.array?[0].byteRange == 1..<4)
        #expect(item.array?[1].byteRange == 4..<8)
        #expect(item.array?[1].bytes.map(Array.init) == [1])
    }

    @Test func definiteByteStringsAreSlicesOfTheInput() throws {
        let bytes = hex("82 43 010203 40")
        let item = try CBORDecoder.decode(bytes)
        let first = try #require(item.array?[0].bytes)
        #expect(first.indices == 2..<5)
        #expect(item.array?[1].bytes?.indices == 6..<6)
    }

    @Test func receivedItemsSpliceVerbatimIntoEncodedValues() throws {
        let received = try CBORDecoder.decode(hex("b9 0001 6161 1801"))
        let built = CBOREncoder.encode(.array([.text("x"), received.asValue]))
        #expect(hexString(built) == "826178" + "b900016161" + "1801")
    }
}
