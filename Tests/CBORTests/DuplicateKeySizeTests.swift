import TestSupport
import Testing
@testable import CBOR

/// Duplicate map keys are found by one rule whatever the map's size and key kinds: the C walker compares the keys of
/// small integer or definite-string maps itself and leaves the other maps to Swift's hashing (`MapKeys`), so every
/// size from 2 to past the walker's largest cut-off is decoded here, with and without a repeat, for each kind of key.
@Suite("Duplicate keys at every map size")
struct DuplicateKeySizeTests {
    /// How the test writes key `index` (all distinct for distinct indices); `alternate` is another encoding of the
    /// same value (non-minimal integer, indefinite-length string).
    enum KeyKind: String, CaseIterable, CustomTestStringConvertible {
        case unsigned, negative, text, bytes, indefiniteText, mixed
        var testDescription: String { rawValue }

        func key(_ index: Int, alternate: Bool = false) -> [UInt8] {
            switch self {
            case .unsigned: alternate ? [0x1A, 0x00, 0x00, 0x01, UInt8(index)] : [0x19, 0x01, UInt8(index)]
            case .negative: alternate ? [0x3A, 0x00, 0x00, 0x01, UInt8(index)] : [0x39, 0x01, UInt8(index)]
            case .text: alternate ? Self.indefinite(text: index) : [0x63, 0x6B, 0x30 + UInt8(index / 10), 0x30 + UInt8(index % 10)]
            case .bytes: alternate ? [0x5F, 0x42, 0x6B, UInt8(index), 0xFF] : [0x42, 0x6B, UInt8(index)]
            case .indefiniteText: Self.indefinite(text: index)
            case .mixed: index % 2 == 0 ? KeyKind.unsigned.key(index, alternate: alternate) : KeyKind.text.key(index, alternate: alternate)
            }
        }

        /// The text "kNN" as an indefinite-length string of two chunks.
        static func indefinite(text index: Int) -> [UInt8] {
            [0x7F, 0x61, 0x6B, 0x62, 0x30 + UInt8(index / 10), 0x30 + UInt8(index % 10), 0xFF]
        }
    }

    /// A map of `pairs` entries with keys 0 ..< pairs, values 0; when `repeating` is given, the last key is key
    /// `repeating` again in its other encoding.
    static func map(_ kind: KeyKind, pairs: Int, repeating: Int? = nil) -> (bytes: [UInt8], lastKeyOffset: Int) {
        var bytes: [UInt8] = pairs < 24 ? [0xA0 | UInt8(pairs)] : [0xB8, UInt8(pairs)]
        var lastKeyOffset = 0
        for index in 0..<pairs {
            let isLast = index == pairs - 1
            lastKeyOffset = bytes.count
            if isLast, let repeating {
                bytes += kind.key(repeating, alternate: true)
            } else {
                bytes += kind.key(index)
            }
            bytes.append(0x00)
        }
        return (bytes, lastKeyOffset)
    }

    @Test("a map of distinct keys decodes; the same map with its last key repeating an earlier one is refused there",
          arguments: KeyKind.allCases)
    func everySize(_ kind: KeyKind) throws {
        for pairs in 2...80 {
            let distinct = Self.map(kind, pairs: pairs)
            #expect(try CBORDecoder.decode(distinct.bytes).map?.count == pairs, "\(pairs) pairs")
            for repeated in Set([0, min(pairs / 2, pairs - 2), pairs - 2]) {
                let repeating = Self.map(kind, pairs: pairs, repeating: repeated)
                #expect(throws: CBORDecodingError(.duplicateMapKey, offset: repeating.lastKeyOffset), "\(pairs) pairs, key \(repeated)") {
                    try CBORDecoder.decode(repeating.bytes)
                }
            }
        }
    }

    @Test("integer and text keys never equal each other, at any size")
    func kindsDiffer() throws {
        // 0..<n as unsigned keys followed by the same numbers as texts: all distinct.
        for pairs in stride(from: 2, through: 80, by: 2) {
            var bytes: [UInt8] = pairs < 24 ? [0xA0 | UInt8(pairs)] : [0xB8, UInt8(pairs)]
            for index in 0..<(pairs / 2) { bytes += [0x18, UInt8(index), 0x00] }
            for index in 0..<(pairs / 2) { bytes += [0x62, 0x30 + UInt8(index / 10), 0x30 + UInt8(index % 10), 0x00] }
            #expect(try CBORDecoder.decode(bytes).map?.count == pairs)
        }
    }
}
