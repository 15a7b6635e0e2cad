import CBOR

/// The data type a known element must have (ISO/IEC 18013-5 §7.2.1 and the namespaces in `ElementTypeTable`).
/// Unknown namespaces and elements are not typed.
/// Only `array` is `indirect`: an indirect `text` would box every text type, and the check reads one per element.
package enum ElementType: Sendable {
    case bool
    case uint
    case bytes
    /// `tstr`, at most `maxCharacters` when given.
    case text(maxCharacters: Int?)
    /// `full-date` = `#6.1004(tstr)`, `YYYY-MM-DD`.
    case fullDate
    /// `tdate` = `#6.0(tstr)`, an RFC 3339 date-time.
    case tdate
    indirect case array(of: ElementType)
    /// A map with text keys (`MapShape`).
    case map(MapShape)
    /// Any one of these.
    case oneOf([ElementType])

    /// A map with text keys; `optional` keys may be absent and any other key passes untyped.
    package static func map(required: KeyValuePairs<StaticString, ElementType>, optional: KeyValuePairs<StaticString, ElementType>) -> ElementType {
        .map(MapShape(required: required, optional: optional))
    }

    /// The keys a map type knows and their types. Keys are compared with the received ones as UTF-8 bytes, in place.
    package final class MapShape: Sendable {
        /// Required keys first, then optional ones.
        let keys: [StaticString]
        let types: [ElementType]
        /// The positions in `keys` of the required keys, in key order: the report names the first missing one.
        let requiredInKeyOrder: [Int]

        init(required: KeyValuePairs<StaticString, ElementType>, optional: KeyValuePairs<StaticString, ElementType>) {
            precondition(required.count + optional.count <= 64, "a map shape's keys are tracked in 64 bits")
            keys = required.map(\.key) + optional.map(\.key)
            types = required.map(\.value) + optional.map(\.value)
            requiredInKeyOrder = required.indices.sorted { "\(required[$0].key)" < "\(required[$1].key)" }
        }
    }

    static let text = ElementType.text(maxCharacters: nil)
    static let name = ElementType.text(maxCharacters: 150)
    /// ISO 3166-1 alpha-2.
    static let countryCode = ElementType.text(maxCharacters: 2)
    static let date = ElementType.oneOf([.fullDate, .tdate])

    /// A YYYY-MM-DD text where a full-date (`#6.1004(tstr)`) is expected: the tag is missing, the value is clear.
    package func acceptsUntaggedFullDate(_ item: CBORItem) -> Bool {
        // The type first: most elements are not dates, and reading the value as a String allocates.
        switch self {
        case .fullDate: break
        case .oneOf(let types) where types.contains(where: { if case .fullDate = $0 { true } else { false } }): break
        default: return false
        }
        guard let text = item.text else { return false }
        return RFC3339.parseFullDate(text) != nil
    }

    /// nil when `item` has this type; otherwise what it is instead, for the report. Reads only what the type needs
    /// (a text becomes a String only when its length is limited).
    package func mismatch(_ item: CBORItem) -> String? {
        switch self {
        case .bool:
            return item.bool != nil ? nil : Self.kind(item)
        case .uint:
            return item.uint != nil ? nil : Self.kind(item)
        case .bytes:
            return item.bytes != nil ? nil : Self.kind(item)
        case .text(let limit):
            guard let length = item.textUTF8Count else { return Self.kind(item) }
            // A text has at most as many characters as UTF-8 bytes: only a longer one is counted.
            guard let limit, length > limit, let text = item.text, text.count > limit else { return nil }
            return "a text of \(text.count) characters; at most \(limit)"
        case .fullDate:
            guard let (tag, inner) = item.tag, tag == 1004 else { return Self.kind(item) }
            return inner.text.flatMap(RFC3339.parseFullDate) != nil ? nil : "a tag-1004 value that is not a YYYY-MM-DD text"
        case .tdate:
            guard let (tag, inner) = item.tag, tag == 0 else { return Self.kind(item) }
            return inner.text.flatMap(RFC3339.parseDateTime) != nil ? nil : "a tag-0 value that is not an RFC 3339 date-time"
        case .array(let element):
            guard let items = item.array else { return Self.kind(item) }
            for (index, entry) in items.enumerated() {
                if let problem = element.mismatch(entry) { return "an array whose item \(index) is \(problem)" }
            }
            return nil
        case .map(let shape):
            guard let entries = item.map else { return Self.kind(item) }
            return Self.mapMismatch(entries, shape)
        case .oneOf(let types):
            return types.contains(where: { $0.mismatch(item) == nil }) ? nil : Self.kind(item)
        }
    }

    /// The first required key missing in key order, else the first entry (in received order) with a non-text key or a
    /// known key of the wrong type. Keys are compared with the shape's as UTF-8 bytes in place, without making items.
    private static func mapMismatch(_ entries: CBORMap, _ shape: MapShape) -> String? {
        var present: UInt64 = 0  // bit i: shape.keys[i] is a key of the map
        for position in entries.indices {
            if let known = entries.keyIndex(position, among: shape.keys) { present |= 1 << known }
        }
        if let missing = shape.requiredInKeyOrder.first(where: { present & (1 << $0) == 0 }) {
            return "a map without \(shape.keys[missing])"
        }
        for position in entries.indices {
            guard entries.keyIsText(position) else { return "a map with a non-text key" }
            guard let known = entries.keyIndex(position, among: shape.keys) else { continue }
            if let problem = shape.types[known].mismatch(entries.value(position)) {
                return "a map whose \(shape.keys[known]) is \(problem)"
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
