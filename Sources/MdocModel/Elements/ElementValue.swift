import CBOR
import Foundation

/// A disclosed data element value, typed for callers. Only reachable from a verified result. Only `tagged` is
/// `indirect`: arrays and maps hold their members out of line already.
public enum ElementValue: Sendable, Equatable {
    /// A text string (`tstr`).
    case text(String)
    /// An unsigned integer; a CBOR simple value other than a boolean or null also arrives as one.
    case unsigned(UInt64)
    /// A negative integer; one whose magnitude reaches 2^63 arrives as `float` instead.
    case negative(Int64)
    /// A boolean.
    case bool(Bool)
    /// A byte string (`bstr`), e.g. a portrait.
    case bytes([UInt8])
    /// A full-date (tag 1004): its `YYYY-MM-DD` text as sent.
    case fullDate(String)
    /// A tdate (tag 0): the RFC 3339 text as sent, and its parsed instant when it parses.
    case dateTime(String, Date?)
    /// A floating-point number.
    case float(Double)
    /// An array.
    case array([ElementValue])
    /// A map, its entries in the order received.
    case map([MapEntry])
    /// A tagged value other than a full-date or tdate: the tag number and the value it wraps.
    indirect case tagged(UInt64, ElementValue)
    /// CBOR `null` or `undefined`.
    case null

    /// One key and value of a `map`.
    public struct MapEntry: Sendable, Equatable {
        /// The entry's key.
        public let key: ElementValue
        /// The entry's value.
        public let value: ElementValue
    }

    /// Converts a received CBOR value. Depth is already bounded by the CBOR decoder's limits.
    package init(_ item: CBORItem) {
        switch item.value {
        case .unsigned(let v): self = .unsigned(v)
        case .negative(let n): self = n < UInt64(Int64.max) ? .negative(-1 - Int64(n)) : .float(-1 - Double(n))
        case .bytes(let b): self = .bytes(Array(b))
        case .text(let t): self = .text(t)
        case .array(let items): self = .array(items.map(ElementValue.init))
        case .map(let entries):
            // By position: an entry makes an item of its key, where a text key is read in place.
            var converted: [MapEntry] = []
            converted.reserveCapacity(entries.count)
            for position in entries.indices {
                let key = entries.textKey(position).map(ElementValue.text) ?? ElementValue(entries.key(position))
                converted.append(MapEntry(key: key, value: ElementValue(entries.value(position))))
            }
            self = .map(converted)
        case .tagged(let tag, let inner):
            switch (tag, tag == 1004 || tag == 0 ? inner.text : nil) {
            case (1004, let text?): self = .fullDate(text)
            case (0, let text?): self = .dateTime(text, RFC3339.parseDateTime(text))
            default: self = .tagged(tag, ElementValue(inner))
            }
        case .simple(let v): self = .unsigned(UInt64(v))
        case .bool(let b): self = .bool(b)
        case .null, .undefined: self = .null
        case .float(let d): self = .float(d)
        }
    }

    /// A one-line summary for humans: large byte strings (portraits) show as their size and type.
    public var summary: String {
        switch self {
        case .text(let t): return t
        case .unsigned(let v): return String(v)
        case .negative(let v): return String(v)
        case .bool(let b): return b ? "true" : "false"
        case .bytes(let b):
            if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "<JPEG, \(b.count) bytes>" }
            if b.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || b.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return "<JPEG 2000, \(b.count) bytes>" }
            return "<\(b.count) bytes>"
        case .fullDate(let d): return d
        case .dateTime(let t, _): return t
        case .float(let d): return String(d)
        case .array(let items): return "[" + items.map(\.summary).joined(separator: ", ") + "]"
        case .map(let entries): return "{" + entries.map { "\($0.key.summary): \($0.value.summary)" }.joined(separator: ", ") + "}"
        case .tagged(let tag, let inner): return "\(tag)(\(inner.summary))"
        case .null: return "null"
        }
    }
}
