import Testing
@testable import CBOR

/// `TerminalText`: which characters become visible escapes, and quoting (diagnostic notation, `InputQuote`) escaping
/// the same set.
@Suite("Terminal text escaping")
struct TerminalTextTests {
    static let table: [(input: String, escaped: String)] = [
        ("plain ASCII", "plain ASCII"),
        ("Grüße, 東京, émoji 🙂, 2 × 3 — ok", "Grüße, 東京, émoji 🙂, 2 × 3 — ok"),
        (#"a\b "quoted""#, #"a\b "quoted""#),
        ("tab\tnl\ncr\r", #"tab\tnl\ncr\r"#),
        ("\u{0}\u{1}\u{7}\u{8}\u{1B}[2K\u{1F}", #"\u{0}\u{1}\u{7}\u{8}\u{1B}[2K\u{1F}"#),
        ("del\u{7F}", #"del\u{7F}"#),
        ("c1 \u{80}\u{85}\u{9B}31m\u{9F}", #"c1 \u{80}\u{85}\u{9B}31m\u{9F}"#),
        ("nbsp\u{A0}é kept", "nbsp\u{A0}é kept"),
        ("\u{2028}\u{2029}", #"\u{2028}\u{2029}"#),
        ("bidi \u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", #"bidi \u{202A}\u{202B}\u{202C}\u{202D}\u{202E}"#),
        ("isolates \u{2066}\u{2067}\u{2068}\u{2069}", #"isolates \u{2066}\u{2067}\u{2068}\u{2069}"#),
        ("marks \u{200E}\u{200F}\u{061C}", #"marks \u{200E}\u{200F}\u{61C}"#),
        ("near misses \u{200D}\u{2027}\u{202F}\u{2065}\u{206A}\u{061B}\u{2014}", "near misses \u{200D}\u{2027}\u{202F}\u{2065}\u{206A}\u{061B}\u{2014}"),
    ]

    @Test("control, line-separator and bidi characters become escapes; everything else is kept", arguments: table.indices)
    func escaped(index: Int) {
        let (input, escaped) = Self.table[index]
        #expect(TerminalText.escaped(input) == escaped, "\(input.debugDescription)")
    }

    @Test("mayStartEscape is true for a lead byte of every escaped scalar (the fast path never skips one)")
    func leadBytes() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), TerminalText.needsEscape(scalar) else { continue }
            let first = Array(String(Character(scalar)).utf8)[0]
            #expect(TerminalText.mayStartEscape(first), "U+\(String(value, radix: 16))")
        }
    }

    @Test("diagnostic notation quotes text with C1 and bidi controls escaped JSON-style")
    func quoted() {
        var out = ""
        CBORDiagnostic.appendQuoted("a\u{1B}b\u{9B}c\u{202E}d\u{2028}é", to: &out)
        #expect(out == #""a\u001bb\u009bc\u202ed\u2028é""#)
        var plain = ""
        CBORDiagnostic.appendQuoted("Grüße", to: &plain)
        #expect(plain == "\"Grüße\"")
    }
}
