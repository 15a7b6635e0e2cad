import TestSupport
import Testing
@testable import CBOR

/// With a vocabulary given to the decoder (`CBORDecoder.Options.vocabulary`), a text it knows reads as the stored String
/// (same storage, so no new allocation); any other text, and every text under 16 bytes, is decoded as it is. The result
/// always equals the received text. Embedded items inherit the vocabulary.
@Suite("Text vocabulary")
struct TextVocabularyTests {
    static let known = "org.iso.18013.5.1.aamva"  // 23 bytes
    static let vocabulary = TextVocabulary([known, "org.iso.18013.5.1", "family_name", known])

    /// The address of a String's UTF-8 storage (nil for a small String stored inline).
    static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    static let options = CBORDecoder.Options(vocabulary: vocabulary)

    static func textItem(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        precondition(utf8.count < 24)
        return [0x60 | UInt8(utf8.count)] + utf8
    }

    @Test("a known text is the stored String")
    func knownText() throws {
        let item = try CBORDecoder.decode(Self.textItem(Self.known), options: Self.options)
        let text = try #require(item.text)
        #expect(text == Self.known)
        #expect(Self.storage(text) != nil)
        #expect(Self.storage(text) == Self.storage(Self.known))
        guard case .text(let value) = item.value else { Issue.record("not a text"); return }
        #expect(Self.storage(value) == Self.storage(Self.known))
        // Decoded without the vocabulary, the same bytes are a String of their own.
        let plain = try #require(try CBORDecoder.decode(Self.textItem(Self.known)).text)
        #expect(plain == Self.known)
        #expect(Self.storage(plain) != Self.storage(Self.known))
    }

    @Test("items embedded in a decoded input are read with its vocabulary")
    func embeddedInherit() throws {
        // [24(<<"org.iso.18013.5.1.aamva">>), 24(<<"org.iso.18013.5.1.aamva">>)]
        let inner = Self.textItem(Self.known)
        let tagged: [UInt8] = [0xD8, 0x18, 0x58, UInt8(inner.count)] + inner
        let bytes: [UInt8] = [0x82] + tagged + tagged
        for options in [Self.options, CBORDecoder.Options()] {
            let array = try #require(try CBORDecoder.decode(bytes, options: options).array)
            let texts = try [array[0].decodeEmbedded().item.text] + array.decodeEachEmbedded().map(\.item.text)
            for case let text? in texts {
                #expect(text == Self.known)
                #expect((Self.storage(text) == Self.storage(Self.known)) == (options.vocabulary != nil))
            }
            #expect(texts.count == 3 && !texts.contains(nil))
        }
    }

    @Test("an indefinite-length text whose chunks join to a known text is the stored String")
    func indefiniteText() throws {
        let utf8 = Array(Self.known.utf8)
        let bytes = [0x7F, 0x60 | UInt8(8)] + utf8[..<8] + [0x60 | UInt8(utf8.count - 8)] + utf8[8...] + [0xFF]
        let text = try #require(try CBORDecoder.decode(bytes, options: Self.options).text)
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
        let text = try #require(try CBORDecoder.decode(Self.textItem(received), options: Self.options).text)
        #expect(text == received)
        if let storage = Self.storage(text) { #expect(storage != Self.storage(Self.known)) }
    }

    @Test("non-text items have no text", arguments: ["43 6b6579", "18 2a", "a1 01 02", "f6"])
    func nonText(_ hexInput: String) throws {
        #expect(try CBORDecoder.decode(hex(hexInput), options: Self.options).text == nil)
    }

    @Test("a map's text key and value readers agree with its entries")
    func mapReaders() throws {
        // {"org.iso.18013.5.1.aamva": "org.iso.18013.5.1", 1: "other text of 20 b", h'00': 2}
        let bytes: [UInt8] = [0xA3] + Self.textItem(Self.known) + Self.textItem("org.iso.18013.5.1") + [0x01]
            + Self.textItem("other text of 20 b") + [0x41, 0x00, 0x02]
        let map = try #require(try CBORDecoder.decode(bytes, options: Self.options).map)
        for position in map.indices {
            #expect(map.textKey(position) == map[position].key.text)
            #expect(map.textValue(position) == map[position].value.text)
        }
        #expect(Self.storage(try #require(map.textKey(0))) == Self.storage(Self.known))
    }
}
