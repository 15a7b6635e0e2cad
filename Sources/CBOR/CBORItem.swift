/// A decoded item plus the exact bytes it occupied in the input.
public struct CBORItem: Sendable {
    /// The decoded content of an item, by CBOR major type (RFC 8949 §3).
    public enum Value: Sendable {
        /// An unsigned integer (major type 0).
        case unsigned(UInt64)
        /// A negative integer (major type 1) given by its encoded argument n; the value is -1 - n (full 64-bit range).
        case negative(UInt64)
        /// A byte string (major type 2). Definite: a slice of the input buffer (no copy). Indefinite: the concatenated
        /// chunks in a new buffer (indices start at 0).
        case bytes(ArraySlice<UInt8>)
        /// A text string (major type 3), validated as UTF-8; indefinite-length chunks are joined.
        case text(String)
        /// An array (major type 4), in received order.
        case array([CBORItem])
        /// A map (major type 5), with its entries in received order.
        case map([CBORMapEntry])
        // Only this case needs a box; the others stay inline (no per-item heap allocation).
        /// A tag number and the item it wraps (major type 6).
        indirect case tagged(UInt64, CBORItem)
        /// Simple values other than false/true/null/undefined.
        case simple(UInt8)
        /// The simple value false or true.
        case bool(Bool)
        /// The simple value null.
        case null
        /// The simple value undefined.
        case undefined
        /// A floating-point number; half, single and double precision are all widened to Double.
        case float(Double)
    }

    /// The decoded content.
    public let value: Value
    /// The exact received bytes of this item (head + content), as a slice of the input buffer.
    /// Its indices are byte offsets in the original input.
    public let raw: ArraySlice<UInt8>

    /// Items come only from the decoder, so `raw` is always received bytes.
    init(value: Value, raw: ArraySlice<UInt8>) {
        self.value = value
        self.raw = raw
    }

    /// The byte offsets this item occupies in the original input (the indices of `raw`).
    public var byteRange: Range<Int> { raw.indices }
}

/// One key/value pair of a decoded map.
public struct CBORMapEntry: Sendable {
    /// The entry's key.
    public let key: CBORItem
    /// The entry's value.
    public let value: CBORItem

    init(key: CBORItem, value: CBORItem) {
        self.key = key
        self.value = value
    }
}

// MARK: - Convenience accessors (nil when the item is of another type)

extension CBORItem {
    /// The value if this item is an unsigned integer, otherwise nil.
    public var uint: UInt64? {
        if case .unsigned(let v) = value { return v }
        return nil
    }

    /// An unsigned or negative integer that fits Int64.
    public var int: Int64? {
        switch value {
        case .unsigned(let v): return v <= UInt64(Int64.max) ? Int64(v) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    /// The string if this item is a text string, otherwise nil.
    public var text: String? {
        if case .text(let s) = value { return s }
        return nil
    }

    /// The content if this item is a byte string, otherwise nil.
    public var bytes: ArraySlice<UInt8>? {
        if case .bytes(let b) = value { return b }
        return nil
    }

    /// The value if this item is a boolean, otherwise nil.
    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// Whether this item is `null`.
    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The elements if this item is an array, otherwise nil.
    public var array: [CBORItem]? {
        if case .array(let items) = value { return items }
        return nil
    }

    /// The entries, in received order, if this item is a map, otherwise nil.
    public var map: [CBORMapEntry]? {
        if case .map(let entries) = value { return entries }
        return nil
    }

    /// The tag number and wrapped item if this item is tagged, otherwise nil.
    public var tag: (tag: UInt64, item: CBORItem)? {
        if case .tagged(let tag, let item) = value { return (tag, item) }
        return nil
    }

    /// The value, widened to `Double`, if this item is a half, single or double precision float, otherwise nil.
    public var float: Double? {
        if case .float(let d) = value { return d }
        return nil
    }

    /// The value of the first entry whose key is the text string `key`.
    public subscript(key: String) -> CBORItem? {
        guard case .map(let entries) = value else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            for entry in entries {
                if case .text(var k) = entry.key.value, k.withUTF8({ $0.elementsEqual(wanted) }) { return entry.value }
            }
            return nil
        }
    }

    /// The value of the first entry whose key is the integer `key` (COSE labels).
    public subscript(intKey key: Int64) -> CBORItem? {
        guard case .map(let entries) = value else { return nil }
        for entry in entries where entry.key.int == key {
            return entry.value
        }
        return nil
    }
}
