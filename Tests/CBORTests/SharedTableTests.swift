import TestSupport
import Testing
@testable import CBOR

/// `CBORArray.decodeEachEmbedded` decodes many tag-24 elements into one node table: each result must equal what
/// `decodeEmbedded` gives for that element alone, and the first bad element must fail as it would alone.
@Suite("Embedded items decoded into one shared table")
struct SharedTableTests {
    /// [24(<< {"a": 1} >>), 24(<< [h'01', "xyz"] >>), 24(_ << [1, 2] >> in two chunks), 24(<< 7 >>)]
    static let elements = hex("84 d8 18 45 a1 6161 1801 d8 18 47 82 41 01 63 78797a d8 18 5f 41 82 42 0102 ff d8 18 41 07")

    /// Each shared result must be what decoding its element alone gives: the same ranges, bytes and value.
    static func expectEachEqualsItsOwnDecoding(_ array: CBORArray, _ shared: [EmbeddedCBOR],
                                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(shared.count == array.count, sourceLocation: sourceLocation)
        for (element, decoded) in zip(array, shared) {
            let alone = try element.decodeEmbedded()
            #expect(decoded.tagged.indices == alone.tagged.indices, sourceLocation: sourceLocation)
            #expect(decoded.inner.indices == alone.inner.indices, sourceLocation: sourceLocation)
            #expect(Array(decoded.inner) == Array(alone.inner), sourceLocation: sourceLocation)
            #expect(decoded.item.byteRange == alone.item.byteRange, sourceLocation: sourceLocation)
            #expect(decoded.item.toValue() == alone.item.toValue(), sourceLocation: sourceLocation)
            #expect(Array(decoded.item.raw) == Array(alone.item.raw), sourceLocation: sourceLocation)
        }
    }

    @Test func eachResultEqualsItsOwnDecoding() throws {
        let array = try #require(try CBORDecoder.decode(Self.elements).array)
        let shared = try array.decodeEachEmbedded()
        try Self.expectEachEqualsItsOwnDecoding(array, shared)
        #expect(shared[0].item["a"]?.uint == 1)
        #expect(shared[0].item.map?.first?.value.byteRange == 7..<9)
        #expect(shared[1].item.array?[1].text == "xyz")
        // The indefinite-length element indexes its joined chunks, as it does alone.
        #expect(shared[2].item.byteRange == 0..<3)
        #expect(shared[3].item.uint == 7)
    }

    @Test func firstBadElementFailsAsItWouldAlone() throws {
        // The second element's content is truncated; the third is not tag 24.
        let array = try #require(try CBORDecoder.decode(hex("83 d8 18 41 01 d8 18 42 82 01 c1 41 00")).array)
        #expect(throws: CBORDecodingError(.truncated, offset: 8)) { try array[1].decodeEmbedded() }
        #expect(throws: CBORDecodingError(.truncated, offset: 8)) { try array.decodeEachEmbedded() }
        let notTagged = try #require(try CBORDecoder.decode(hex("82 d8 18 41 01 c1 41 00")).array)
        #expect(throws: CBORDecodingError(.notEmbeddedCBOR, offset: 5)) { try notTagged.decodeEachEmbedded() }
    }

    @Test func duplicateKeysAreFoundInEveryElement() throws {
        // The second element is {"a": 1, "a": 2}.
        let array = try #require(try CBORDecoder.decode(hex("82 d8 18 41 01 d8 18 47 a2 6161 01 6161 02")).array)
        #expect(throws: CBORDecodingError(.duplicateMapKey, offset: 12)) { try array.decodeEachEmbedded() }
    }

    /// [24(<< {"a": 1} >>), 24(<< [h'01', "xyz"] >>), 24(<< 7 >>), 24(<< {1: 24(<< 2 >>)} >>)]: all definite, walked in
    /// one call.
    static let definite = hex("84 d8 18 45 a1 6161 1801 d8 18 47 82 41 01 63 78797a d8 18 41 07 d8 18 46 a1 01 d8 18 41 02")

    @Test func definiteElementsInOneWalkEqualTheirOwnDecoding() throws {
        let array = try #require(try CBORDecoder.decode(Self.definite).array)
        let shared = try array.decodeEachEmbedded()
        try Self.expectEachEqualsItsOwnDecoding(array, shared)
        #expect(shared[1].item.array?[1].text == "xyz")
        #expect(shared[1].item.array?[1].byteRange == 15..<19)
        #expect(try shared[3].item[intKey: 1]?.decodeEmbedded().item.uint == 2)
    }

    @Test("a duplicate among keys checked after the walk is found, and before a later element's error")
    func duplicateAmongKeysCheckedAfterTheWalk() throws {
        // The second element is {simple(15): 0, simple(15): 0}: keys compared by value after the walk.
        let duplicate = try #require(try CBORDecoder.decode(hex("83 d8 18 41 01 d8 18 45 a2 ef 00 ef 00 d8 18 41 02")).array)
        #expect(throws: CBORDecodingError(.duplicateMapKey, offset: 11)) { try duplicate.decodeEachEmbedded() }
        // The same, then a third element with invalid UTF-8: the earlier element's duplicate is reported.
        let both = try #require(try CBORDecoder.decode(hex("83 d8 18 41 01 d8 18 45 a2 ef 00 ef 00 d8 18 42 61 ff")).array)
        #expect(throws: CBORDecodingError(.duplicateMapKey, offset: 11)) { try both.decodeEachEmbedded() }
        // Distinct keys of that kind pass.
        let distinct = try #require(try CBORDecoder.decode(hex("82 d8 18 41 01 d8 18 45 a2 ef 00 ee 00")).array)
        #expect(try distinct.decodeEachEmbedded().count == 2)
    }
}
