/// A decoded item plus the exact bytes it occupied in the input.
public struct CBORItem: Sendable {
    public enum Value: Sendable {
        case unsigned(UInt64)
        /// The encoded argument n; the value is -1 - n (full 64-bit range).
        case negative(UInt64)
        /// Definite: a slice of the input buffer (no copy). Indefinite: the concatenated
        /// chunks in a new buffer (indices start at 0).
        case bytes(ArraySlice<UInt8>)
        case text(String)
        case array([CBORItem])
        /// Entries in received order.
        case map([CBORMapEntry])
        // Only this case needs a box; the others stay inline (no per-item heap allocation).
        indirect case tagged(UInt64, CBORItem)
        /// Simple values other than false/true/null/undefined.
        case simple(UInt8)
        case bool(Bool)
        case null
        case undefined
        /// Half, single and double precision, all widened to Double.
        case float(Double)
    }

    public let value: Value
    /// The exact received bytes of this item (head + content), as a slice of the input buffer.
    /// Its indices are byte offsets in the original input.
    public let raw: ArraySlice<UInt8>

    /// Items come only from the decoder, so `raw` is always received bytes.
    init(value: Value, raw: ArraySlice<UInt8>) {
        self.value = value
        self.raw = raw
    }

    public var byteRange: Range<Int> { raw.indices }
}

public struct CBORMapEntry: Sendable {
    public let key: CBORItem
    public let value: CBORItem

    init(key: CBORItem, value: CBORItem) {
        self.key = key
        self.value = value
    }
}

// MARK: - Convenience accessors (nil when the item is of another type)

extension CBORItem {
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

    public var text: String? {
        if case .text(let s) = value { return s }
        return nil
    }

    public var bytes: ArraySlice<UInt8>? {
        if case .bytes(let b) = value { return b }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    public var array: [CBORItem]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var map: [CBORMapEntry]? {
        if case .map(let entries) = value { return entries }
        return nil
    }

    public var tag: (tag: UInt64, item: CBORItem)? {
        if case .tagged(let tag, let item) = value { return (tag, item) }
        return nil
    }

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
