/// Text from a response as a terminal or a log line shows it. Control characters could move the cursor, erase a
/// line or start an escape sequence, and bidirectional controls reorder what is displayed, so each becomes a visible
/// escape: `\t` `\n` `\r`, otherwise `\u{1B}` (the scalar in hex). Everything else, backslashes included, is kept.
package enum TerminalText {
    /// Whether `scalar` is shown escaped: C0 and C1 controls and DEL, the line and paragraph separators
    /// U+2028/U+2029, and the bidirectional controls U+061C, U+200E/U+200F, U+202A–U+202E and U+2066–U+2069.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether a UTF-8 byte may start an escaped scalar: a C0 control, DEL, or the lead byte of the ranges
    /// holding C1 (0xC2), U+061C (0xD8) and the U+2000 block (0xE2). Text with none needs no escape.
    package static func mayStartEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    /// `text` with every scalar `needsEscape` names replaced by its visible escape.
    package static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: mayStartEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}
