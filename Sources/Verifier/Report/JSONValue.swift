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

    /// The value as UTF-8 JSON bytes, through `JSONWriter` (the writer reports use without a tree).
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.value(self)
        return writer.bytes
    }
}
