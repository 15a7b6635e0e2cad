/// JSON text written straight into a byte buffer as events arrive: no tree, one buffer. Compact by default (what the
/// server answers); `pretty` puts each member and element on its own line, indented two spaces per level, with empty
/// containers as `[]` and `{}` (what the CLI prints). Separators are written as values arrive, so the writer keeps a
/// depth and three flags instead of a stack.
public struct JSONWriter: JSONSink {
    /// The UTF-8 JSON text written so far.
    public private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var depth = 0
    private var needsComma = false
    private var afterKey = false
    private var justOpened = false

    /// An empty writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 4096, pretty: Bool = false) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    public mutating func key(_ key: String) {
        separate()
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
        needsComma = true
    }

    public mutating func number(_ text: String) { scalar(text) }
    public mutating func bool(_ value: Bool) { scalar(value ? "true" : "false") }
    public mutating func null() { scalar("null") }

    /// Before a key or a value: nothing after a key; otherwise the comma after an earlier sibling and, pretty, the
    /// line break and indent of this level.
    private mutating func separate() {
        justOpened = false
        if afterKey {
            afterKey = false
            return
        }
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        if pretty, depth > 0 { newline(depth) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        needsComma = false
        justOpened = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty, !justOpened { newline(depth) }
        bytes.append(bracket)
        needsComma = true
        justOpened = false
    }

    private mutating func scalar(_ text: String) {
        separate()
        Self.appendRaw(text, to: &bytes)
        needsComma = true
    }

    private mutating func newline(_ level: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static func appendRaw(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// A JSON string literal (RFC 8259 §7): `"` `\\` and C0 control characters (and DEL) are escaped, everything else
    /// (C1 and bidirectional controls too, which `CBORDiagnostic.appendQuoted` also escapes) is copied as UTF-8, in runs
    /// between escapes. Reports are mostly text that needs no escape, so the scan tests eight bytes at a time and looks
    /// at single bytes only in a word that holds one to escape.
    private static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        out.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var runStart = 0
            var index = 0
            while index < count {
                if count - index >= 8, !wordNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let end = min(index + 8, count)
                while index < end {
                    let byte = base[index]
                    if !byteNeedsEscape(byte) {
                        index += 1
                        continue
                    }
                    out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                    appendEscape(byte, to: &out)
                    index += 1
                    runStart = index
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func byteNeedsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes of `word` needs an escape (below 0x20, `"`, `\\` or DEL). A byte b is below n
    /// (n ≤ 0x80) when `(b - n) & ~b & 0x80` is set, and equal to c when `b ^ c` is below 1; borrows between lanes can
    /// only set bits above a lane that already matched, so "any lane" is exact.
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func anyBelow(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highs }
        let control = anyBelow(word, 0x20)
        let quote = anyBelow(word ^ (ones &* 0x22), 1)
        let backslash = anyBelow(word ^ (ones &* 0x5C), 1)
        let delete = anyBelow(word ^ (ones &* 0x7F), 1)
        return (control | quote | backslash | delete) != 0
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): appendRaw("\\\"", to: &out)
        case UInt8(ascii: "\\"): appendRaw("\\\\", to: &out)
        case 0x0A: appendRaw("\\n", to: &out)
        case 0x0D: appendRaw("\\r", to: &out)
        case 0x09: appendRaw("\\t", to: &out)
        default:
            let digits: StaticString = "0123456789abcdef"
            appendRaw("\\u00", to: &out)
            out.append(digits.utf8Start[Int(byte >> 4)])
            out.append(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
