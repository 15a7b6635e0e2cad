import TestSupport
import Testing
@testable import CBOR

/// Every error kind, with its offset.
@Suite("Decoding errors")
struct DecodingErrorTests {
    private func expectError(
        _ input: String, _ kind: CBORDecodingError.Kind, at offset: Int, limits: CBORLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(decodingError(input, limits: limits) == CBORDecodingError(kind, offset: offset),
                "input \(input)", sourceLocation: sourceLocation)
    }

    @Test func truncatedInHead() {
        expectError("", .truncated, at: 0)
        expectError("19 01", .truncated, at: 0)
        expectError("1b 0000 0000", .truncated, at: 0)
        expectError("f8", .truncated, at: 0)
        expectError("f9 00", .truncated, at: 0)
        expectError("82 01 19 01", .truncated, at: 2)
        expectError("d8", .truncated, at: 0)
    }

    @Test func truncatedInContent() {
        expectError("43 01 02", .truncated, at: 0)
        expectError("62 61", .truncated, at: 0)
        expectError("82 01 43 01", .truncated, at: 2)
        expectError("a1 61 61 78 05 6162", .truncated, at: 3)
    }

    @Test func truncatedInNestedContainer() {
        expectError("82 81 01", .truncated, at: 0)          // outer array misses an element
        expectError("83 01 82 02", .truncated, at: 2)       // inner array cannot fit its count
        expectError("9f 01 82 02 03", .truncated, at: 0)    // no break
        expectError("82 01 9f 02", .truncated, at: 2)
        expectError("a1 61 61", .truncated, at: 0)          // map value missing
        expectError("d8 18", .truncated, at: 0)             // tag without content
        expectError("5f 41 01", .truncated, at: 0)          // indefinite string without break
        expectError("81 d8 18 45 a1 61 61", .truncated, at: 3)  // the byte string
    }

    @Test func hugeDeclaredLengthsFailFastAsTruncated() {
        expectError("9b 00 00 00 10 00 00 00 00", .truncated, at: 0)
        expectError("9b ff ff ff ff ff ff ff ff 01", .truncated, at: 0)
        expectError("bb 00 00 00 10 00 00 00 00 01 01", .truncated, at: 0)
        expectError("5b ff ff ff ff ff ff ff ff", .truncated, at: 0)
        expectError("5b ff ff ff ff ff ff ff ff 00", .truncated, at: 0)
        expectError("7b 00 00 00 01 00 00 00 00 61", .truncated, at: 0)
        expectError("82 01 9b 00 00 00 10 00 00 00 00", .truncated, at: 2)
        expectError("9a ff ff ff ff", .truncated, at: 0)
        // The truncation check comes before the container-size limit.
        expectError("99 ff ff", .truncated, at: 0, limits: .init(maxItemsPerContainer: 1))
    }

    @Test func trailingBytes() {
        expectError("01 02", .trailingBytes, at: 1)
        expectError("82 01 02 03", .trailingBytes, at: 3)
        expectError("9f ff ff", .trailingBytes, at: 2)
        expectError("60 00", .trailingBytes, at: 1)
    }

    @Test func reservedAdditionalInformation() {
        for major in 0..<8 {
            for info in 28...30 {
                let initial = UInt8(major << 5 | info)
                #expect(decodingError([initial, 0, 0, 0, 0, 0, 0, 0, 0]) == CBORDecodingError(.malformed, offset: 0),
                        "initial byte \(initial)")
            }
        }
        expectError("82 01 1d", .malformed, at: 2)
        expectError("a1 61 61 fe", .malformed, at: 3)
    }

    @Test func indefiniteLengthWhereNotAllowed() {
        expectError("1f", .malformed, at: 0)  // unsigned
        expectError("3f", .malformed, at: 0)  // negative
        expectError("df 01", .malformed, at: 0)  // tag
    }

    @Test func unexpectedBreak() {
        expectError("ff", .malformed, at: 0)
        expectError("82 01 ff", .malformed, at: 2)
        expectError("81 ff", .malformed, at: 1)
        expectError("d8 18 ff", .malformed, at: 2)
        expectError("bf 61 61 ff", .malformed, at: 3)  // break where a map value is due
    }

    @Test func wrongChunksInIndefiniteStrings() {
        expectError("5f 61 61 ff", .malformed, at: 1)  // text chunk in a byte string
        expectError("7f 41 61 ff", .malformed, at: 1)  // byte chunk in a text string
        expectError("5f 01 ff", .malformed, at: 1)
        expectError("5f 80 ff", .malformed, at: 1)
        expectError("5f 5f ff ff", .malformed, at: 1)  // nested indefinite chunk
        expectError("7f 61 61 7f ff ff", .malformed, at: 3)
    }

    @Test func smallTwoByteSimpleValuesAreMalformed() {
        expectError("f8 18", .malformed, at: 0)
        expectError("f8 1f", .malformed, at: 0)
        #expect(decodingError("f8 20") == nil)
    }

    @Test func invalidUTF8InDefiniteText() {
        expectError("62 c3 28", .invalidUTF8, at: 1)
        expectError("61 ff", .invalidUTF8, at: 1)
        expectError("62 c0 80", .invalidUTF8, at: 1)          // overlong
        expectError("64 61 ed a0 80", .invalidUTF8, at: 2)    // surrogate U+D800
        expectError("64 f4 90 80 80", .invalidUTF8, at: 1)    // above U+10FFFF
        expectError("63 61 62 e6", .invalidUTF8, at: 3)       // cut-off sequence
        expectError("82 01 63 61 ed a0", .invalidUTF8, at: 4)
        expectError("a1 62 c3 28 01", .invalidUTF8, at: 2)    // in a map key
    }

    @Test("a bad byte is found at every position of long ASCII text; multi-byte sequences across 8-byte words pass")
    func invalidUTF8InLongText() {
        for length in [7, 8, 9, 15, 16, 17, 23] {
            for position in 0 ..< length {
                var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                text[position] = 0xFF
                #expect(decodingError([0x60 + UInt8(length)] + text) == CBORDecodingError(.invalidUTF8, offset: 1 + position),
                        "length \(length), position \(position)")
            }
        }
        // "abcdefg" + U+20AC (3 bytes across the first word's end) + "hijklmno" + U+00FC (at a word's start).
        let mixed = Array("abcdefg".utf8) + [0xE2, 0x82, 0xAC] + Array("hijklmno".utf8) + [0xC3, 0xBC]
        #expect(decodingError([0x60 + UInt8(mixed.count)] + mixed) == nil)
        // The same with the euro sign's last byte cut off: the sequence is reported where it starts.
        let cut = Array("abcdefg".utf8) + [0xE2, 0x82] + Array("hijklmno".utf8)
        #expect(decodingError([0x60 + UInt8(cut.count)] + cut) == CBORDecodingError(.invalidUTF8, offset: 8))
    }

    @Test func invalidUTF8AcrossChunks() {
        // U+00FC split over two chunks: each chunk must be valid on its own (RFC 8949 §3.2.3).
        expectError("7f 61 c3 61 bc ff", .invalidUTF8, at: 2)
        expectError("7f 61 61 61 ff ff", .invalidUTF8, at: 4)
        expectError("7f 62 61 62 62 63 e6 ff", .invalidUTF8, at: 6)
        #expect(decodingError("7f 62 c3 bc 63 e6 b0 b4 ff") == nil)
    }

    @Test func depthLimit() throws {
        let limits = CBORLimits(maxDepth: 2)
        #expect(decodingError("81 81 01", limits: limits) == nil)
        expectError("81 81 81 01", .depthLimitExceeded, at: 2, limits: limits)
        expectError("81 81 80", .depthLimitExceeded, at: 2, limits: limits)
        expectError("c1 c1 c1 01", .depthLimitExceeded, at: 2, limits: limits)
        expectError("9f 9f 9f ff ff ff", .depthLimitExceeded, at: 2, limits: limits)
        expectError("80", .depthLimitExceeded, at: 0, limits: CBORLimits(maxDepth: 0))
        #expect(decodingError("01", limits: CBORLimits(maxDepth: 0)) == nil)
        // An indefinite string inside the deepest container is allowed.
        #expect(decodingError("81 81 5f 41 01 ff", limits: limits) == nil)

        let deep = [UInt8](repeating: 0x81, count: 33) + [0x01]
        #expect(decodingError(deep) == CBORDecodingError(.depthLimitExceeded, offset: 32))
        let ok = [UInt8](repeating: 0x81, count: 32) + [0x01]
        #expect(try CBORDecoder.decode(ok).byteRange == 0..<33)
        // A deep input with a generous limit still decodes (the stack grows on the heap).
        let veryDeep = [UInt8](repeating: 0x81, count: 500) + [0x01]
        #expect(decodingError(veryDeep, limits: CBORLimits(maxDepth: 500)) == nil)
    }

    @Test func containerLimit() {
        let limits = CBORLimits(maxItemsPerContainer: 2)
        #expect(decodingError("82 01 02", limits: limits) == nil)
        expectError("83 01 02 03", .containerLimitExceeded, at: 0, limits: limits)
        expectError("82 01 83 01 02 03", .containerLimitExceeded, at: 2, limits: limits)
        expectError("9f 01 02 03 ff", .containerLimitExceeded, at: 0, limits: limits)
        expectError("a3 01 01 02 02 03 03", .containerLimitExceeded, at: 0, limits: limits)
        expectError("bf 01 01 02 02 03 ff", .containerLimitExceeded, at: 0, limits: limits)
        #expect(decodingError("bf 01 01 02 02 ff", limits: limits) == nil)
        expectError("5f 41 01 41 02 41 03 ff", .containerLimitExceeded, at: 0, limits: limits)
    }

    @Test func totalItemLimit() {
        let limits = CBORLimits(maxTotalItems: 3)
        #expect(decodingError("82 01 02", limits: limits) == nil)
        expectError("83 01 02 03", .itemLimitExceeded, at: 3, limits: limits)
        expectError("a1 01 82 01 02", .itemLimitExceeded, at: 3, limits: limits)
        #expect(decodingError("9f 01 02 ff", limits: limits) == nil)  // breaks do not count
        expectError("5f 41 01 41 02 41 03 ff", .itemLimitExceeded, at: 5, limits: limits)  // chunks count
    }

    @Test func inputTooLarge() {
        expectError("82 01 02 03 04", .inputTooLarge, at: 4, limits: CBORLimits(maxInputBytes: 4))
        #expect(decodingError("83 01 02 03", limits: CBORLimits(maxInputBytes: 4)) == nil)
        let buffer = hex("00 00 82 01 02")
        #expect(throws: CBORDecodingError(.inputTooLarge, offset: 4)) {
            try CBORDecoder.decode(buffer[2...], limits: CBORLimits(maxInputBytes: 2))
        }
    }

    @Test func duplicateMapKeys() {
        expectError("a2 61 61 01 61 61 02", .duplicateMapKey, at: 4)
        expectError("a2 01 00 18 01 00", .duplicateMapKey, at: 3)   // 1 and 1 (non-minimal)
        expectError("a2 20 00 38 00 00", .duplicateMapKey, at: 3)   // -1 twice
        expectError("a2 61 61 01 7f 61 61 ff 02", .duplicateMapKey, at: 4)  // definite vs indefinite "a"
        expectError("a2 41 01 00 5f 41 01 ff 00", .duplicateMapKey, at: 4)
        expectError("a2 f9 3c 00 00 fa 3f 80 00 00 00", .duplicateMapKey, at: 5)  // 1.0 half vs single
        expectError("a2 82 01 02 00 82 01 18 02 00", .duplicateMapKey, at: 5)   // [1, 2] twice
        expectError("bf 61 61 01 61 62 02 61 61 03 ff", .duplicateMapKey, at: 7)
        expectError("81 a2 01 00 01 00", .duplicateMapKey, at: 4)  // nested map
        // Keys that differ by value are fine.
        #expect(decodingError("a4 01 00 21 00 f9 3c 00 00 61 31 00") == nil)  // 1, -2, 1.0, "1"
        #expect(decodingError("a2 62 c3 a9 00 63 65 cc 81 00") == nil)  // é precomposed vs decomposed
        #expect(decodingError("a2 41 01 00 61 01 00") == nil)  // h'01' vs "\u0001"
    }

    @Test("integer keys are compared pairwise up to 64 pairs, text keys up to 16; larger maps by hashing")
    func duplicateKeysInLargeMaps() {
        // 20 distinct integer keys, then a repeat of key 7 as a non-minimal head.
        var bytes: [UInt8] = [0xB5]
        for key in 0..<20 { bytes += [UInt8(key), 0x00] }
        bytes += [0x18, 0x07, 0x00]
        #expect(decodingError(bytes) == CBORDecodingError(.duplicateMapKey, offset: 41))
        // 70 integer keys (past pairwise comparison), the last a repeat of 3.
        var large: [UInt8] = [0xB8, 70]
        for key in 0..<69 { large += (key < 24 ? [UInt8(key)] : [0x18, UInt8(key)]) + [0x00] }
        #expect(decodingError([0xB8, 69] + large.dropFirst(2)) == nil)
        #expect(decodingError(large + [0x03, 0x00]) == CBORDecodingError(.duplicateMapKey, offset: large.count))
        var texts: [UInt8] = [0xB8, 30]
        for key in 0..<30 { texts += [0x62, 0x6B, 0x30 + UInt8(key)] + [0x00] }
        #expect(decodingError(texts) == nil)
        texts[1] = 31
        texts += [0x62, 0x6B, 0x30 + 12, 0x01]
        #expect(decodingError(texts) == CBORDecodingError(.duplicateMapKey, offset: 2 + 30 * 4))
    }

    @Test("the first UTF-8 or duplicate-key error in the order the items end is reported, wherever its map is checked")
    func firstOfTwoErrorsIsReported() {
        // A map with simple-value keys (checked after the walk, by value) closes before the bad text.
        expectError("82 a2 ef 00 ef 00 61 ff", .duplicateMapKey, at: 4)
        expectError("82 61 ff a2 ef 00 ef 00", .invalidUTF8, at: 2)
        expectError("82 a2 01 00 01 00 61 ff", .duplicateMapKey, at: 4)
        // A map's keys are checked when it closes, after the items inside it.
        expectError("a2 01 61 ff 01 00", .invalidUTF8, at: 3)
        // Structure comes first: the truncation after both.
        expectError("83 a2 ef 00 ef 00 61 ff", .truncated, at: 0)
    }

    @Test func nestedDeclaredCountsAreNotReserved() {
        // Each count fits the bytes left, but the items never come: truncated at the open container, not a limit.
        expectError("98 05 98 04 98 03 00 00 00 00", .truncated, at: 2)
        expectError("98 05 98 04 98 03 00 00 00 00", .truncated, at: 2, limits: CBORLimits(maxTotalItems: 8))
    }

    @Test func indefiniteStringsWithoutChunks() throws {
        #expect(try CBORDecoder.decode(hex("7f ff")).text == "")
        #expect(try CBORDecoder.decode(hex("5f ff")).bytes?.isEmpty == true)
        let array = try #require(try CBORDecoder.decode(hex("83 7f ff 01 7f 61 61 ff")).array)
        #expect(array[0].text == "")
        #expect(array[1].uint == 1)
        #expect(array[2].text == "a")
    }

    @Test func notEmbeddedCBOR() throws {
        #expect(throws: CBORDecodingError(.notEmbeddedCBOR, offset: 0)) {
            try CBORDecoder.decode(hex("01")).decodeEmbedded()
        }
        #expect(throws: CBORDecodingError(.notEmbeddedCBOR, offset: 0)) {
            try CBORDecoder.decode(hex("c1 41 00")).decodeEmbedded()  // tag 1
        }
        let array = try CBORDecoder.decode(hex("82 00 d8 18 01"))  // tag 24 around an integer
        #expect(throws: CBORDecodingError(.notEmbeddedCBOR, offset: 2)) {
            try array.array?[1].decodeEmbedded()
        }
        // Errors inside the embedded item report offsets in the original buffer.
        let bad = try CBORDecoder.decode(hex("82 00 d8 18 42 82 01"))
        #expect(throws: CBORDecodingError(.truncated, offset: 5)) {
            try bad.array?[1].decodeEmbedded()
        }
        let trailing = try CBORDecoder.decode(hex("82 00 d8 18 42 01 02"))
        #expect(throws: CBORDecodingError(.trailingBytes, offset: 6)) {
            try trailing.array?[1].decodeEmbedded()
        }
        let empty = try CBORDecoder.decode(hex("d8 18 40"))
        #expect(throws: CBORDecodingError(.truncated, offset: 3)) { try empty.decodeEmbedded() }
        let deep = try CBORDecoder.decode(hex("d8 18 43 81 81 01"))
        #expect(throws: CBORDecodingError(.depthLimitExceeded, offset: 4)) {
            try deep.decodeEmbedded(limits: CBORLimits(maxDepth: 1))
        }
    }

    @Test func descriptionsNameKindAndOffsetOnly() {
        #expect(CBORDecodingError(.truncated, offset: 17).description == "CBOR truncated at byte 17")
        let all: [CBORDecodingError.Kind] = [
            .truncated, .trailingBytes, .malformed, .invalidUTF8, .depthLimitExceeded, .containerLimitExceeded,
            .itemLimitExceeded, .inputTooLarge, .duplicateMapKey, .notEmbeddedCBOR,
        ]
        for kind in all {
            #expect(CBORDecodingError(kind, offset: 1234).description.contains("1234"))
        }
        #expect(Set(all.map { CBORDecodingError(kind: $0).description }).count == all.count)
    }
}

private extension CBORDecodingError {
    init(kind: Kind) { self.init(kind, offset: 0) }
}
