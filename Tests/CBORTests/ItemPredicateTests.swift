import TestSupport
import Testing
@testable import CBOR

/// `isText`, `isBytes`, `isMap`, `isText(_:)`, `textIndex(among:)` and the map's in-place readers read the node's kind without
/// building a value; each must agree with the decoded `value`, for definite and indefinite strings alike.
@Suite("Item predicates agree with the decoded value")
struct ItemPredicateTests {
    static let items: [(hex: String, text: String?)] = [
        ("63 6b6579", "key"),                     // "key"
        ("7f 62 6b65 61 79 ff", "key"),           // (_ "ke", "y")
        ("60", ""),                               // ""
        ("43 6b6579", nil),                       // h'6b6579': bytes with the same content
        ("5f 42 6b65 41 79 ff", nil),             // (_ h'6b65', h'79')
        ("a1 01 02", nil),                        // {1: 2}
        ("bf 01 02 ff", nil),                     // {_ 1: 2}
        ("18 2a", nil),                           // 42
        ("d8 18 43 6b6579", nil),                 // 24(h'6b6579')
    ]

    @Test("predicates match the value's case", arguments: items)
    func predicates(_ hexInput: String, _ text: String?) throws {
        let item = try CBORDecoder.decode(hex(hexInput))
        var isText = false, isBytes = false, isMap = false
        switch item.value {
        case .text: isText = true
        case .bytes: isBytes = true
        case .map: isMap = true
        default: break
        }
        #expect(item.isText == isText)
        #expect(item.isBytes == isBytes)
        #expect(item.isMap == isMap)
        #expect(item.isText("key") == (text == "key"))
        #expect(item.isText("") == (text == ""))
        #expect(!item.isText("ke"))
    }

    @Test("textIndex finds the text among candidates, by exact bytes, and nothing for other items", arguments: items)
    func textIndex(_ hexInput: String, _ text: String?) throws {
        let item = try CBORDecoder.decode(hex(hexInput))
        // A prefix, a longer text that starts with it and an empty candidate around the match.
        let expected: Int? = switch text {
        case "key": 2
        case "": 3
        default: nil
        }
        #expect(item.textIndex(among: ["ke", "keys", "key", ""]) == expected)
        #expect(item.textIndex(among: []) == nil)
    }

    @Test("textIndex matches one-character candidates too")
    func textIndexOneCharacter() throws {
        // {"x": 1, "y": 2, "é": 3}; one-character literals may be stored as a scalar rather than as UTF-8 bytes.
        let map = try #require(try CBORDecoder.decode(hex("a3 6178 01 6179 02 62c3a9 03")).map)
        let keys: [StaticString] = ["y", "é", "x"]
        #expect(map.indices.map { map.keyIndex($0, among: keys) } == [2, 0, 1])
        #expect(map.indices.map { map.keyIndex($0, among: ["yy", "xé"]) } == [nil, nil, nil])
    }

    @Test("a map's keyIndex, key and value agree with its entries, entry by entry", arguments: items)
    func mapKeyIndex(_ hexInput: String, _ text: String?) throws {
        // {item: 7, 1: item, "keys": 8}: the entries' own answers are the oracle.
        let item = hex(hexInput)
        let map = try #require(try CBORDecoder.decode([0xA3] + item + [0x07, 0x01] + item + hex("64 6b657973 08")).map)
        for position in map.indices {
            #expect(map.keyIndex(position, among: ["ke", "keys", "key", ""]) == map[position].key.textIndex(among: ["ke", "keys", "key", ""]))
            #expect(map.key(position).byteRange == map[position].key.byteRange)
            #expect(map.value(position).byteRange == map[position].value.byteRange)
        }
    }

    @Test("a map's in-place key and value readers agree with its entries", arguments: items)
    func mapInPlaceReaders(_ hexInput: String, _ text: String?) throws {
        // {item: 7, 1: item, "keys": h'00ff'}: the entries' own items are the oracle.
        let item = hex(hexInput)
        let map = try #require(try CBORDecoder.decode([0xA3] + item + [0x07, 0x01] + item + hex("64 6b657973 42 00ff")).map)
        for position in map.indices {
            let entry = map[position]
            #expect(map.unsignedKey(position) == entry.key.uint)
            #expect(map.textKey(position) == entry.key.text)
            #expect(map.keyIsText(position) == entry.key.isText)
            #expect(map.unsignedValue(position) == entry.value.uint)
            #expect(map.textValue(position) == entry.value.text)
            #expect(map.valueByteCount(position) == entry.value.bytes?.count)
            #expect(map.withValueBytes(position) { Array($0) } == entry.value.bytes.map(Array.init))
        }
    }
}
