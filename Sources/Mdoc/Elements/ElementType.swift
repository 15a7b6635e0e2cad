import CBOR

/// The data type a known element must have (ISO/IEC 18013-5 §7.2.1 and the namespaces in `ElementTypeTable`).
/// Unknown namespaces and elements are not typed.
package indirect enum ElementType: Sendable {
    case bool
    case uint
    case bytes
    /// `tstr`, at most `maxCharacters` when given.
    case text(maxCharacters: Int?)
    /// `full-date` = `#6.1004(tstr)`, `YYYY-MM-DD`.
    case fullDate
    /// `tdate` = `#6.0(tstr)`, an RFC 3339 date-time.
    case tdate
    case array(of: ElementType)
    /// A map with text keys; `optional` keys may be absent and any other key passes untyped.
    case map(required: [String: ElementType], optional: [String: ElementType])
    /// Any one of these.
    case oneOf([ElementType])

    static let text = ElementType.text(maxCharacters: nil)
    static let name = ElementType.text(maxCharacters: 150)
    /// ISO 3166-1 alpha-2.
    static let countryCode = ElementType.text(maxCharacters: 2)
    static let date = ElementType.oneOf([.fullDate, .tdate])

    /// A YYYY-MM-DD text where a full-date (`#6.1004(tstr)`) is expected: the tag is missing, the value is clear.
    package func acceptsUntaggedFullDate(_ item: CBORItem) -> Bool {
        guard case .text(let text) = item.value, RFC3339.parseFullDate(text) != nil else { return false }
        switch self {
        case .fullDate: return true
        case .oneOf(let types): return types.contains { if case .fullDate = $0 { true } else { false } }
        default: return false
        }
    }

    /// nil when `item` has this type; otherwise what it is instead, for the report.
    package func mismatch(_ item: CBORItem) -> String? {
        switch (self, item.value) {
        case (.bool, .bool), (.uint, .unsigned), (.bytes, .bytes):
            return nil
        case (.text(let limit), .text(let text)):
            guard let limit, text.count > limit else { return nil }
            return "a text of \(text.count) characters; at most \(limit)"
        case (.fullDate, .tagged(1004, let inner)):
            return inner.text.flatMap(RFC3339.parseFullDate) != nil ? nil : "a tag-1004 value that is not a YYYY-MM-DD text"
        case (.tdate, .tagged(0, let inner)):
            return inner.text.flatMap(RFC3339.parseDateTime) != nil ? nil : "a tag-0 value that is not an RFC 3339 date-time"
        case (.array(let element), .array(let items)):
            for (index, entry) in items.enumerated() {
                if let problem = element.mismatch(entry) { return "an array whose item \(index) is \(problem)" }
            }
            return nil
        case (.map(let required, let optional), .map(let entries)):
            return Self.mapMismatch(entries, required: required, optional: optional)
        case (.oneOf(let types), _):
            return types.contains(where: { $0.mismatch(item) == nil }) ? nil : Self.kind(item)
        default:
            return Self.kind(item)
        }
    }

    private static func mapMismatch(_ entries: CBORMap, required: [String: ElementType],
                                    optional: [String: ElementType]) -> String? {
        for key in required.keys.sorted() where !entries.contains(where: { $0.key.text == key }) {
            return "a map without \(key)"
        }
        for entry in entries {
            guard let key = entry.key.text else { return "a map with a non-text key" }
            if let type = required[key] ?? optional[key], let problem = type.mismatch(entry.value) {
                return "a map whose \(key) is \(problem)"
            }
        }
        return nil
    }

    /// What an item is, in the words of CDDL.
    static func kind(_ item: CBORItem) -> String {
        switch item.value {
        case .unsigned: "an unsigned integer"
        case .negative: "a negative integer"
        case .bytes: "a byte string"
        case .text: "a text string"
        case .array: "an array"
        case .map: "a map"
        case .tagged(let tag, _): "a value with tag \(tag)"
        case .simple: "a simple value"
        case .bool: "a bool"
        case .null, .undefined: "null"
        case .float: "a float"
        }
    }
}
