import Foundation

/// Hex and base64url text ↔ bytes, for inputs given as text (CLI files, JSON fields, vectors).
package enum Hex {
    /// Decodes hex, ignoring ASCII whitespace; nil on an odd digit count or a non-hex character.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
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

    /// Encodes `bytes` as lowercase hex, two digits per byte, without separators.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
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

/// Base64url (RFC 4648 §5) text ↔ bytes: strict decoding for protocol strings, lenient decoding for files.
package enum Base64URL {
    /// Decodes base64url or standard base64, padded or not, ignoring ASCII whitespace (line-wrapped files).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        text.utf8.withContiguousStorageIfAvailable { decode($0, lenient: true) } ?? decode(Array(text.utf8), lenient: true)
    }

    /// base64url without padding (RFC 4648 §5), as ISO 18013-7 Annex C uses.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        let alphabet = Self.alphabet
        return String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { out in
            var written = 0
            func put(_ sextet: UInt32) {
                out[written] = alphabet[Int(sextet & 0x3F)]
                written += 1
            }
            var index = 0
            while index + 3 <= input.count {
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                put(group >> 18); put(group >> 12); put(group >> 6); put(group)
                index += 3
            }
            switch input.count - index {
            case 1:
                let group = UInt32(input[index]) << 16
                put(group >> 18); put(group >> 12)
            case 2:
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                put(group >> 18); put(group >> 12); put(group >> 6)
            default: break
            }
            return written
        }
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Strict base64url for protocol strings (RFC 4648 §5): only `A–Z a–z 0–9 - _`, no whitespace, no
    /// standard-alphabet characters, padding tolerated only as one or two trailing `=` that complete a
    /// quantum, and zero leftover bits (canonical, §3.5). ISO 18013-7 Annex C strings are decoded with this.
    package static func decodeStrict(_ text: String) -> [UInt8]? {
        text.utf8.withContiguousStorageIfAvailable { decode($0, lenient: false) } ?? decode(Array(text.utf8), lenient: false)
    }

    /// One decoder for both: `lenient` also accepts `+ /`, whitespace and non-canonical trailing bits. Responses of
    /// several KB are decoded on every request, so whole quanta of four symbols are decoded at once into a buffer of
    /// the final size; a quantum holding anything else (whitespace, padding, an invalid byte) goes symbol by symbol.
    private static func decode(_ input: [UInt8], lenient: Bool) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, lenient: lenient) }
    }

    private static func decode(_ symbols: UnsafeBufferPointer<UInt8>, lenient: Bool) -> [UInt8]? {
        var end = symbols.count
        var padding = 0
        // Trailing padding (and, when lenient, whitespace around it).
        while end > 0 {
            let last = symbols[end - 1]
            if last == UInt8(ascii: "=") {
                padding += 1
            } else if !(lenient && isWhitespace(last)) {
                break
            }
            end -= 1
        }
        var valid = true
        var count = 0
        var accumulator: UInt32 = 0
        var bits = 0
        let decoded = [UInt8](unsafeUninitializedCapacity: end / 4 * 3 + 3) { out, written in
            (lenient ? lenientTable : strictTable).withUnsafeBufferPointer { table in
                var index = 0
                while index + 4 <= end {
                    let a = table[Int(symbols[index])], b = table[Int(symbols[index + 1])]
                    let c = table[Int(symbols[index + 2])], d = table[Int(symbols[index + 3])]
                    guard a | b | c | d < 64 else { break }
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: group)
                    written += 3
                    index += 4
                }
                count = index
                for position in index ..< end {
                    let symbol = symbols[position]
                    let value = table[Int(symbol)]
                    if value >= 64 {
                        if lenient, isWhitespace(symbol) { continue }
                        valid = false
                        return
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    count += 1
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        // At most end / 4 * 3 + 2 bytes come out; checked rather than assumed.
                        guard written < out.count else { valid = false; return }
                        out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        written += 1
                    }
                }
            }
        }
        guard valid else { return nil }
        guard padding == 0 || (padding <= 2 && (count + padding) % 4 == 0) else { return nil }
        guard count % 4 != 1 else { return nil }
        // Leftover bits must be zero in canonical encoding (RFC 4648 §3.5).
        guard lenient || accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return decoded
    }

    private static func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// Sextet of each byte in the base64url alphabet; 255 is not base64url.
    private static let strictTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, c) in alphabet.enumerated() { table[Int(c)] = UInt8(index) }
        return table
    }()

    /// The same, with the standard alphabet's `+` and `/` also accepted.
    private static let lenientTable: [UInt8] = {
        var table = strictTable
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()
}

/// Bytes given as text in either form, as the CLI's input files and the inspector's fields take them: hex when the
/// text is only hex digits (and whitespace), base64 or base64url otherwise. Nil for empty or undecodable text.
package enum BinaryText {
    /// Decodes `text` as hex when it is only hex digits and whitespace, else as base64 or base64url; nil when the
    /// text is empty or undecodable.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let hex = Hex.decode(text), !hex.isEmpty { return hex }
        if let bytes = Base64URL.decode(text), !bytes.isEmpty { return bytes }
        return nil
    }
}
