import CBOR
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing

/// The small parsers behind the element checks, read as bytes for speed: they must still answer as the rules say.
@Suite("Element rules read as bytes")
struct ElementRuleTests {
    @Test("age_over_NN: the threshold from ASCII digits only", arguments: [
        ("age_over_18", 18), ("age_over_021", 21), ("age_over_0", 0), ("age_over_", nil), ("age_over_1a", nil),
        ("Age_over_18", nil), ("age_over_-1", nil), ("age_over_\u{0663}", nil), ("age_over_\u{301}18", nil),
        ("age_over_18446744073709551615", 18_446_744_073_709_551_615), ("age_over_18446744073709551616", nil),
        ("age_over_99999999999999999999", nil), ("age_over", nil), ("xage_over_18", nil),
    ] as [(String, UInt64?)])
    func ageOverThreshold(identifier: String, threshold: UInt64?) {
        #expect(AgeDisclosure.ageOverThreshold(identifier) == threshold)
    }

    @Test("a text limit counts characters, not UTF-8 bytes", arguments: [
        ("abc", true), ("abcd", false), ("ééé", true), ("éééé", false), ("e\u{301}e\u{301}e\u{301}", true),
        ("🇩🇪🇫🇷🇮🇹", true), ("🇩🇪🇫🇷🇮🇹🇪🇸", false), ("", true),
    ])
    func textLimit(text: String, fits: Bool) throws {
        let item = try CBORDecoder.decode(CBOREncoder.encode(.text(text)))
        #expect((ElementType.text(maxCharacters: 3).mismatch(item) == nil) == fits)
        #expect(item.textUTF8Count == text.utf8.count)
    }

    @Test func textUTF8CountOfOtherItems() throws {
        #expect(try CBORDecoder.decode([0x7F, 0x61, 0x61, 0x62, 0xC3, 0xA9, 0xFF]).textUTF8Count == 3)  // chunks joined
        #expect(try CBORDecoder.decode([0x41, 0x61]).textUTF8Count == nil)
        #expect(try CBORDecoder.decode([0x01]).textUTF8Count == nil)
    }
}
