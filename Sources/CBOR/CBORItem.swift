import CCBORWalker

/// A decoded item plus the exact bytes it occupied in the input.
///
/// An item is a view into the decoded input (a row of its node table): copying one copies no decoded value, and its
/// `raw` bytes, strings and containers are read from the received bytes when asked for.
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
        case array(CBORArray)
        /// A map (major type 5), with its entries in received order.
        case map(CBORMap)
        /// A tag number and the item it wraps (major type 6).
        case tagged(UInt64, CBORItem)
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

    let tree: CBORTree
    let row: Int

    /// Items come only from the decoder, so `raw` is always received bytes.
    init(tree: CBORTree, row: Int) {
        self.tree = tree
        self.row = row
    }

    var node: CBORNode { tree.nodes[row] }

    /// The decoded content.
    public var value: Value {
        let node = self.node
        switch Int(node.kind) {
        case CBOR_WALK_UINT: return .unsigned(node.value)
        case CBOR_WALK_NEGINT: return .negative(node.value)
        case CBOR_WALK_BYTES, CBOR_WALK_BYTES_INDEF: return .bytes(tree.content(of: node))
        case CBOR_WALK_TEXT, CBOR_WALK_TEXT_INDEF: return .text(tree.string(row) ?? "")
        case CBOR_WALK_ARRAY: return .array(CBORArray(tree: tree, node: node))
        case CBOR_WALK_MAP: return .map(CBORMap(tree: tree, node: node))
        case CBOR_WALK_TAG: return .tagged(node.value, CBORItem(tree: tree, row: row + 1))
        case CBOR_WALK_FALSE: return .bool(false)
        case CBOR_WALK_TRUE: return .bool(true)
        case CBOR_WALK_NULL: return .null
        case CBOR_WALK_UNDEFINED: return .undefined
        case CBOR_WALK_FLOAT: return .float(Double(bitPattern: node.value))
        default: return .simple(UInt8(truncatingIfNeeded: node.value))
        }
    }

    /// The exact received bytes of this item (head + content), as a slice of the input buffer.
    /// Its indices are byte offsets in the original input.
    public var raw: ArraySlice<UInt8> { tree.raw(row) }

    /// The byte offsets this item occupies in the original input (the indices of `raw`).
    public var byteRange: Range<Int> {
        let node = self.node
        return node.start..<node.end
    }
}

/// One key/value pair of a decoded map.
public struct CBORMapEntry: Sendable {
    /// The entry's key.
    public let key: CBORItem
    /// The entry's value.
    public let value: CBORItem
}

/// The elements of a decoded array, in received order (a view into the decoded input).
public struct CBORArray: RandomAccessCollection, Sendable {
    let tree: CBORTree
    /// The first slot of the array's block in `tree.children` (not `first`, which would shadow `Collection.first`).
    let firstSlot: Int
    /// The number of elements.
    public let count: Int

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The element count.
    public var endIndex: Int { count }

    init(tree: CBORTree, node: CBORNode) {
        (self.tree, firstSlot, count) = (tree, Int(node.firstChild), Int(node.childCount))
    }

    init(tree: CBORTree, firstSlot: Int, count: Int) {
        (self.tree, self.firstSlot, self.count) = (tree, firstSlot, count)
    }

    /// The element at `position` (0 ..< count).
    public subscript(position: Int) -> CBORItem {
        CBORItem(tree: tree, row: row(position))
    }

    /// The row of the element at `position` (0 ..< count), for reading it in place.
    func row(_ position: Int) -> Int {
        precondition(position >= 0 && position < count, "CBORArray index out of range")
        return Int(tree.children[firstSlot + position])
    }
}

/// The entries of a decoded map, in received order (a view into the decoded input).
public struct CBORMap: RandomAccessCollection, Sendable {
    /// The map's child slots: keys and values alternate.
    let slots: CBORArray
    /// The number of entries (key/value pairs).
    public var count: Int { slots.count / 2 }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The entry count.
    public var endIndex: Int { count }

    init(tree: CBORTree, node: CBORNode) {
        slots = CBORArray(tree: tree, node: node)
    }

    init(slots: CBORArray) {
        self.slots = slots
    }

    /// The entry at `position` (0 ..< count).
    public subscript(position: Int) -> CBORMapEntry {
        CBORMapEntry(key: key(position), value: value(position))
    }

    /// The key of entry `position` (0 ..< count).
    public func key(_ position: Int) -> CBORItem {
        CBORItem(tree: slots.tree, row: keyRow(position))
    }

    /// The value of entry `position` (0 ..< count).
    public func value(_ position: Int) -> CBORItem {
        CBORItem(tree: slots.tree, row: valueRow(position))
    }

    // In-place readers, for this package's decoders: each reads one row of the table without making an item.

    /// The position in `keys` of the text key of entry `position` (compared as UTF-8 bytes), or nil (another text or
    /// not a text). Reads a map of known keys without making an item of each key.
    package func keyIndex(_ position: Int, among keys: [StaticString]) -> Int? {
        slots.tree.textIndex(keyRow(position), among: keys)
    }

    /// Whether the key of entry `position` is a text string.
    package func keyIsText(_ position: Int) -> Bool {
        slots.tree.textByteCount(keyRow(position)) != nil
    }

    /// The key of entry `position` if it is an unsigned integer, otherwise nil.
    package func unsignedKey(_ position: Int) -> UInt64? {
        slots.tree.unsigned(keyRow(position))
    }

    /// The key of entry `position` if it is a text string (the vocabulary's String when it knows it), otherwise nil.
    package func textKey(_ position: Int) -> String? {
        slots.tree.string(keyRow(position))
    }

    /// The value of entry `position` if it is an unsigned integer, otherwise nil.
    package func unsignedValue(_ position: Int) -> UInt64? {
        slots.tree.unsigned(valueRow(position))
    }

    /// The value of entry `position` if it is a text string (the vocabulary's String when it knows it), otherwise nil.
    package func textValue(_ position: Int) -> String? {
        slots.tree.string(valueRow(position))
    }

    /// The length of entry `position`'s value if it is a byte string, otherwise nil.
    package func valueByteCount(_ position: Int) -> Int? {
        slots.tree.withBytes(valueRow(position)) { $0.count }
    }

    /// `body` applied to the content of entry `position`'s value if it is a byte string, otherwise nil. The bytes are
    /// read in place, without a slice (for checks that compare many values, such as digests).
    package func withValueBytes<Result>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        slots.tree.withBytes(valueRow(position), body)
    }

    private func keyRow(_ position: Int) -> Int {
        precondition(position >= 0 && position < count, "CBORMap index out of range")
        return slots.row(2 * position)
    }

    private func valueRow(_ position: Int) -> Int {
        precondition(position >= 0 && position < count, "CBORMap index out of range")
        return slots.row(2 * position + 1)
    }
}

// MARK: - Convenience accessors (nil when the item is of another type)

extension CBORItem {
    /// The value if this item is an unsigned integer, otherwise nil.
    public var uint: UInt64? { tree.unsigned(row) }

    /// An unsigned or negative integer that fits Int64.
    public var int: Int64? {
        let node = self.node
        switch Int(node.kind) {
        case CBOR_WALK_UINT: return node.value <= UInt64(Int64.max) ? Int64(node.value) : nil
        case CBOR_WALK_NEGINT: return node.value <= UInt64(Int64.max) ? -1 - Int64(node.value) : nil
        default: return nil
        }
    }

    /// The string if this item is a text string, otherwise nil: the vocabulary's String when the decoder had a
    /// `CBORDecoder.Options.vocabulary` that knows it, a new String otherwise.
    public var text: String? { tree.string(row) }

    /// The content if this item is a byte string, otherwise nil.
    public var bytes: ArraySlice<UInt8>? {
        let node = self.node
        switch Int(node.kind) {
        case CBOR_WALK_BYTES, CBOR_WALK_BYTES_INDEF: return tree.content(of: node)
        default: return nil
        }
    }

    /// The value if this item is a boolean, otherwise nil.
    public var bool: Bool? {
        switch Int(node.kind) {
        case CBOR_WALK_FALSE: false
        case CBOR_WALK_TRUE: true
        default: nil
        }
    }

    /// Whether this item is `null`.
    public var isNull: Bool { Int(node.kind) == CBOR_WALK_NULL }

    /// The elements if this item is an array, otherwise nil.
    public var array: CBORArray? {
        let node = self.node
        guard Int(node.kind) == CBOR_WALK_ARRAY else { return nil }
        return CBORArray(tree: tree, node: node)
    }

    /// The entries, in received order, if this item is a map, otherwise nil.
    public var map: CBORMap? {
        let node = self.node
        guard Int(node.kind) == CBOR_WALK_MAP else { return nil }
        return CBORMap(tree: tree, node: node)
    }

    /// Whether this item is a map.
    public var isMap: Bool { Int(node.kind) == CBOR_WALK_MAP }

    /// Whether this item is a text string (definite or indefinite), without making a String of it.
    public var isText: Bool {
        let kind = Int(node.kind)
        return kind == CBOR_WALK_TEXT || kind == CBOR_WALK_TEXT_INDEF
    }

    /// The length in UTF-8 bytes if this item is a text string, without making a String of it; otherwise nil.
    package var textUTF8Count: Int? { tree.textByteCount(row) }

    /// Whether this item is a byte string (definite or indefinite), without making a slice of it.
    public var isBytes: Bool {
        let kind = Int(node.kind)
        return kind == CBOR_WALK_BYTES || kind == CBOR_WALK_BYTES_INDEF
    }

    /// Whether this item is the text string `string`, compared as UTF-8 bytes without making a String.
    package func isText(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { tree.isText(row, $0) }
    }

    /// The position in `keys` of this item's text, compared as UTF-8 bytes; nil if it is another text or not a text.
    /// For reading a map of known keys in one pass: one comparison set per entry instead of one call per candidate.
    package func textIndex(among keys: [StaticString]) -> Int? {
        tree.textIndex(row, among: keys)
    }

    /// The tag number and wrapped item if this item is tagged, otherwise nil.
    public var tag: (tag: UInt64, item: CBORItem)? {
        let node = self.node
        guard Int(node.kind) == CBOR_WALK_TAG else { return nil }
        return (node.value, CBORItem(tree: tree, row: row + 1))
    }

    /// The value, widened to `Double`, if this item is a half, single or double precision float, otherwise nil.
    public var float: Double? {
        let node = self.node
        return Int(node.kind) == CBOR_WALK_FLOAT ? Double(bitPattern: node.value) : nil
    }

    /// The value of the first entry whose key is the text string `key` (keys are compared as UTF-8 bytes).
    public subscript(key: String) -> CBORItem? {
        let node = self.node
        guard Int(node.kind) == CBOR_WALK_MAP else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            let first = Int(node.firstChild)
            for slot in stride(from: first, to: first + Int(node.childCount), by: 2) where tree.isText(Int(tree.children[slot]), wanted) {
                return tree.item(atSlot: slot + 1)
            }
            return nil
        }
    }

    /// The value of the first entry whose key is the integer `key` (COSE labels).
    public subscript(intKey key: Int64) -> CBORItem? {
        map?.first { $0.key.int == key }?.value
    }
}

extension CBORMap {
    /// A map without entries (for example an absent COSE protected header).
    public static let empty = CBORMap(slots: CBORArray(tree: CBORTree(input: [], nodes: [], children: [], joined: []), firstSlot: 0, count: 0))
}
