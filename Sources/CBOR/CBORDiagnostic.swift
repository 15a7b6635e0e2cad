/// CBOR diagnostic notation (RFC 8949 §8). Encoding details (indefinite lengths, head sizes)
/// are not shown.
extension CBORItem {
    /// This item in CBOR diagnostic notation (RFC 8949 §8).
    ///
    /// For example `{"a": 1, "b": 24(<< {"c": h'01'} >>)}`. With `expandEmbedded`, a tag-24 byte string
    /// that decodes as CBOR is shown as `24(<< … >>)` (up to 16 levels of embedding).
    public func diagnostic(expandEmbedded: Bool = true) -> String {
        var out = ""
        CBORDiagnostic.append(self, to: &out, embeddingBudget: expandEmbedded ? 16 : 0)
        return out
    }
}

/// CBOR diagnostic notation (RFC 8949 §8).
public enum CBORDiagnostic {
    static func append(_ item: CBORItem, to out: inout String, embeddingBudget: Int) {
        switch item.value {
        case .unsigned(let v):
            out += String(v)
        case .negative(let n):
            out += n == .max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bytes(let b):
            appendHex(b, to: &out)
        case .text(let s):
            appendQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (index, element) in items.enumerated() {
                if index > 0 { out += ", " }
                append(element, to: &out, embeddingBudget: embeddingBudget)
            }
            out += "]"
        case .map(let entries):
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += ", " }
                append(entry.key, to: &out, embeddingBudget: embeddingBudget)
                out += ": "
                append(entry.value, to: &out, embeddingBudget: embeddingBudget)
            }
            out += "}"
        case .tagged(let tag, let content):
            out += String(tag) + "("
            if tag == 24, embeddingBudget > 0, case .bytes(let bytes) = content.value,
               let embedded = try? CBORDecoder.decode(bytes) {
                out += "<< "
                append(embedded, to: &out, embeddingBudget: embeddingBudget - 1)
                out += " >>"
            } else {
                append(content, to: &out, embeddingBudget: embeddingBudget)
            }
            out += ")"
        case .simple(let v):
            out += "simple(\(v))"
        case .bool(let b):
            out += b ? "true" : "false"
        case .null:
            out += "null"
        case .undefined:
            out += "undefined"
        case .float(let d):
            out += float(d)
        }
    }

    static func float(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        var text = "\(d)"  // "1.5", "100000.0", "1e+300", "5.960464477539063e-08"
        if let e = text.firstIndex(of: "e"), !text[..<e].contains(".") {
            text.insert(contentsOf: ".0", at: e)  // RFC 8949 style: "1.0e+300"
        }
        return text
    }

    private static let hexDigits = Array("0123456789abcdef")

    static func appendHex(_ bytes: ArraySlice<UInt8>, to out: inout String) {
        out += "h'"
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        out += "'"
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7); diagnostic notation uses the same syntax (RFC 8949 §8).
    /// Control and bidirectional characters (`TerminalText.needsEscape`) are escaped too, so a quoted string cannot
    /// drive a terminal. Strings that need no escaping are appended whole.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        if !s.utf8.contains(where: { TerminalText.mayStartEscape($0) || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where TerminalText.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
