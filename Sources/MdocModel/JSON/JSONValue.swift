import Foundation

/// A minimal JSON tree with insertion-ordered objects, so reports serialize with a stable key order; what
/// `JSONValue.parse` reads and `JSONWriter` writes. Not `indirect`:
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

    // MARK: Access

    /// The value of the object's member `name`; nil when this is not an object or has no such member.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The text, when this is a string.
    public var string: String? { if case .string(let text) = self { text } else { nil } }
    /// The elements, when this is an array.
    public var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The members in order, when this is an object.
    public var members: [(String, JSONValue)]? { if case .object(let members) = self { members } else { nil } }
    /// The value, when this is a boolean.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// Whether this is an object.
    public var isObject: Bool { if case .object = self { true } else { false } }

    /// A non-negative integer written without sign, fraction or exponent, within UInt64; nil otherwise.
    public var unsignedInteger: UInt64? {
        guard case .number(let text) = self, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(text)
    }

    /// What kind of value this is, for messages ("an object", "a string", …).
    public var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
