import Foundation

/// Hex and base64url text ↔ bytes, for inputs given as text (CLI files, JSON fields, vectors).
public enum Hex {
    /// Decodes hex, ignoring ASCII whitespace; nil on an odd digit count or a non-hex character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        for c in text.utf8 {
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { continue }
            guard let nibble = nibble(c) else { return nil }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30 ... 0x39: return c - 0x30
        case 0x61 ... 0x66: return c - 0x61 + 10
        case 0x41 ... 0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}

public enum Base64URL {
    /// Decodes base64url or standard base64, padded or not, ignoring ASCII whitespace (line-wrapped files).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(Array(text.utf8), lenient: true)
    }

    /// base64url without padding (RFC 4648 §5), as ISO 18013-7 Annex C uses.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Strict base64url for protocol strings (RFC 4648 §5): only `A–Z a–z 0–9 - _`, no whitespace, no
    /// standard-alphabet characters, padding tolerated only as one or two trailing `=` that complete a
    /// quantum, and zero leftover bits (canonical, §3.5). ISO 18013-7 Annex C strings are decoded with this.
    public static func decodeStrict(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8), lenient: false)
    }

    /// One decoder for both: `lenient` also accepts `+ /`, whitespace and non-canonical trailing bits.
    private static func decode(_ input: [UInt8], lenient: Bool) -> [UInt8]? {
        var symbols = input
        if lenient { symbols.removeAll { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }
        var padding = 0
        while symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        guard padding == 0 || (padding <= 2 && (symbols.count + padding) % 4 == 0) else { return nil }
        guard symbols.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = sextet(symbol, lenient: lenient) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero in canonical encoding (RFC 4648 §3.5).
        guard lenient || accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }

    private static func sextet(_ c: UInt8, lenient: Bool) -> UInt8? {
        switch c {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        case UInt8(ascii: "+") where lenient: return 62
        case UInt8(ascii: "/") where lenient: return 63
        default: return nil
        }
    }
}
