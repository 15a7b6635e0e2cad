import CBOR
import Foundation

/// A minimal JSON tree with insertion-ordered objects, so reports serialize with a stable key order. Not `indirect`:
/// arrays and objects already hold their members out of line, and a boxed case cost one allocation per node.
public enum JSONValue: Sendable, Equatable {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number, kept as its text.
    case number(String)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object whose members keep their insertion order.
    case object([(String, JSONValue)])

    /// A number from any integer.
    public static func int<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// Structural equality; object members compare in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value as JSON text; `pretty` puts each member on its own line, indented two spaces per level.
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes: compact through `JSONWriter` (the same bytes a report writes without a tree), or
    /// pretty-printed.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        guard pretty else {
            var writer = JSONWriter()
            writer.value(self)
            return writer.bytes
        }
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: Self.append("null", to: &out)
        case .bool(let b): Self.append(b ? "true" : "false", to: &out)
        case .number(let n): Self.append(n, to: &out)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            guard !items.isEmpty else { return Self.append("[]", to: &out) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(pretty, indent + 1, &out)
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            Self.newline(pretty, indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            guard !pairs.isEmpty else { return Self.append("{}", to: &out) }
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(pretty, indent + 1, &out)
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            Self.newline(pretty, indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ pretty: Bool, _ indent: Int, _ out: inout [UInt8]) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func append(_ s: String, to out: inout [UInt8]) {
        JSONWriter.appendRaw(s, to: &out)
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        JSONWriter.appendQuoted(s, to: &out)
    }
}
