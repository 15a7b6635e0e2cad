import TestSupport
import Testing
@testable import CBOR

/// A text the vocabulary knows comes back as the stored String (same storage, so no new allocation); any other text,
/// and every text under 16 bytes, is decoded as it is. The result always equals the received text.
@Suite("Text vocabulary")
struct TextVocabularyTests {
    static let known = "org.iso.18013.5.1.aamva"  // 23 bytes
    static let vocabulary = TextVocabulary([known, "org.iso.18013.5.1", "family_name", known])

    /// The address of a String's UTF-8 storage (nil for a small String stored inline).
    static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    static func textItem(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        precondition(utf8.count < 24)
        return [0x60 | UInt8(utf8.count)] + utf8
    }

    @Test("a known text is the stored String")
    func knownText() throws {
        let item = try CBORDecoder.decode(Self.textItem(Self.known))
        let text = try #require(item.text(in: Self.vocabulary))
        #expect(text == Self.known)
        #expect(Self.storage(text) != nil)
        #expect(Self.storage(text) == Self.storage(Self.known))
        // Without the vocabulary the same item is a String of its own.
        #expect(Self.storage(try #require(item.text)) != Self.storage(Self.known))
    }

    @Test("an indefinite-length text whose chunks join to a known text is the stored String")
    func indefiniteText() throws {
        let utf8 = Array(Self.known.utf8)
        let bytes = [0x7F, 0x60 | UInt8(8)] + utf8[..<8] + [0x60 | UInt8(utf8.count - 8)] + utf8[8...] + [0xFF]
        let text = try #require(try CBORDecoder.decode(bytes).text(in: Self.vocabulary))
        #expect(text == Self.known)
        #expect(Self.storage(text) == Self.storage(Self.known))
    }

    @Test("other texts are decoded as received", arguments: [
        "org.iso.18013.5.1.aamvb",  // same length, last byte differs
        "org.iso.18013.5.1.aamv",   // a prefix of a known text
        "Xrg.iso.18013.5.1.aamva",  // first byte differs
        "org.iso.18013.5.1.mDL",    // not in the vocabulary
        "family_name",              // known, but short texts are not kept
        "",
    ])
    func otherTexts(_ received: String) throws {
        let text = try #require(try CBORDecoder.decode(Self.textItem(received)).text(in: Self.vocabulary))
        #expect(text == received)
        if let storage = Self.storage(text) { #expect(storage != Self.storage(Self.known)) }
    }

    @Test("non-text items have no text", arguments: ["43 6b6579", "18 2a", "a1 01 02", "f6"])
    func nonText(_ hexInput: String) throws {
        #expect(try CBORDecoder.decode(hex(hexInput)).text(in: Self.vocabulary) == nil)
    }

    @Test("a map's text key and value readers agree with its entries")
    func mapReaders() throws {
        // {"org.iso.18013.5.1.aamva": "org.iso.18013.5.1", 1: "other text of 20 b", h'00': 2}
        let bytes: [UInt8] = [0xA3] + Self.textItem(Self.known) + Self.textItem("org.iso.18013.5.1") + [0x01]
            + Self.textItem("other text of 20 b") + [0x41, 0x00, 0x02]
        let map = try #require(try CBORDecoder.decode(bytes).map)
        for position in map.indices {
            #expect(map.textKey(position, in: Self.vocabulary) == map[position].key.text)
            #expect(map.textValue(position, in: Self.vocabulary) == map[position].value.text)
        }
        #expect(Self.storage(try #require(map.textKey(0, in: Self.vocabulary))) == Self.storage(Self.known))
    }
}
