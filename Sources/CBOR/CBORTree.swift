import CCBORWalker
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One decoded input: the received bytes and every item as a row of a flat node table. Items are views into it
/// (`CBORItem` is the tree and a row number), so copying an item copies no value tree, and decoding allocates a few
/// arrays rather than one per container and per long text (docs/performance.md).
final class CBORTree: Sendable {
    /// The input, with its original indices.
    let input: ArraySlice<UInt8>
    /// The items in pre-order: a container's or a tag's content follows its head.
    let nodes: [CBORNode]
    /// The child rows of every container, one contiguous block per container (a map's keys and values alternate).
    let children: [Int32]
    /// The concatenated chunks of indefinite-length strings (`CBORNode.firstChild` is the row here).
    let joined: [[UInt8]]
    /// The texts read as stored Strings (`CBORDecoder.Options.vocabulary`), which embedded items decoded from this
    /// table inherit.
    let vocabulary: TextVocabulary?
    /// The limits the table was decoded with, which embedded items decoded from it inherit.
    let limits: CBORLimits

    init(input: ArraySlice<UInt8>, nodes: [CBORNode], children: [Int32], joined: [[UInt8]], vocabulary: TextVocabulary? = nil,
         limits: CBORLimits = .default) {
        self.input = input
        self.nodes = nodes
        self.children = children
        self.joined = joined
        self.vocabulary = vocabulary
        self.limits = limits
    }

    /// The content of a byte or text string node: a slice of the input, or the joined chunks (indices from 0).
    func content(of node: CBORNode) -> ArraySlice<UInt8> {
        switch Int(node.kind) {
        case CBOR_WALK_BYTES_INDEF, CBOR_WALK_TEXT_INDEF: joined[Int(node.firstChild)][...]
        default: input[node.contentRange]
        }
    }

    /// The item whose row is stored in `children[slot]`.
    func item(atSlot slot: Int) -> CBORItem {
        CBORItem(tree: self, row: Int(children[slot]))
    }

    /// Whether row `row` is a text string whose UTF-8 bytes are `utf8`, compared without making a String.
    func isText(_ row: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        withText(row) { $0.sameBytes(as: utf8) } ?? false
    }

    /// The position in `keys` of row `row`'s text, compared as UTF-8 bytes, or nil (another text or not a text). One
    /// look at the input for all candidates, where a loop of `isText` calls would look once per candidate.
    func textIndex(_ row: Int, among keys: [StaticString]) -> Int? {
        withText(row) { text in
            for index in keys.indices {
                let key = keys[index]
                // Lengths first: most candidates differ in length, and a literal's bytes are read without a closure.
                if key.hasPointerRepresentation {
                    guard key.utf8CodeUnitCount == text.count else { continue }
                    if text.sameBytes(as: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)) { return index }
                } else if key.withUTF8Buffer({ text.sameBytes(as: $0) }) {
                    return index
                }
            }
            return nil
        } ?? nil
    }

    /// The exact received bytes of row `row` (head and content).
    func raw(_ row: Int) -> ArraySlice<UInt8> {
        let node = nodes[row]
        return input[node.start..<node.end]
    }

    /// Row `row`'s value if it is an unsigned integer, otherwise nil.
    func unsigned(_ row: Int) -> UInt64? {
        let node = nodes[row]
        return Int(node.kind) == CBOR_WALK_UINT ? node.value : nil
    }

    /// The length in UTF-8 bytes of row `row`'s text, or nil when it is not a text string.
    func textByteCount(_ row: Int) -> Int? {
        withText(row) { $0.count }
    }

    /// Row `row`'s text as a String (the stored one when the table's vocabulary knows it), or nil when it is not a text
    /// string. Decoded from the input in place, not through a slice of it.
    func string(_ row: Int) -> String? {
        withText(row) { vocabulary?.text(matching: $0) ?? String(decoding: $0, as: UTF8.self) }
    }

    /// `body` applied to row `row`'s content if it is a byte string (definite: in the input; indefinite: the joined
    /// chunks), or nil when it is not.
    @inline(__always)
    func withBytes<Result>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        withContent(row, definite: CBOR_WALK_BYTES, indefinite: CBOR_WALK_BYTES_INDEF, body)
    }

    /// `body` applied to row `row`'s UTF-8 bytes, or nil when the row is not a text string.
    @inline(__always)
    private func withText<Result>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        withContent(row, definite: CBOR_WALK_TEXT, indefinite: CBOR_WALK_TEXT_INDEF, body)
    }

    /// `body` applied to the content of row `row` (definite: in the input; indefinite: the joined chunks) when its kind
    /// is `definite` or `indefinite`, otherwise nil. Always inlined, so that its closure is not a context to retain.
    @inline(__always)
    private func withContent<Result>(_ row: Int, definite: Int, indefinite: Int,
                                     _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let node = nodes[row]
        switch Int(node.kind) {
        case definite:
            let content = node.contentRange
            return input.withUnsafeBufferPointer { body($0.bytes(at: content, base: input.startIndex)) }
        case indefinite:
            return joined[Int(node.firstChild)].withUnsafeBufferPointer(body)
        default:
            return nil
        }
    }
}

/// One item of a `CBORTree`, as the C walker writes it (`cbor_tree_node` in cbor_walker.h): `value` by kind (the
/// integer, n of a negative integer, a string's length, a container's count, the tag number, the simple value, or the
/// bits of a float widened to Double); `start` and `end`, the input indices of the head and one past the last byte;
/// `firstChild` and `childCount`, a container's block in `children` (a map's count is twice its pairs) or an
/// indefinite string's row in `joined`; `kind`, the walker's `CBOR_WALK_*` (indefinite arrays and maps are stored as
/// definite ones); `headLength`, 1, 2, 3, 5 or 9.
typealias CBORNode = cbor_tree_node

extension CBORNode {
    /// Input indices of a definite string's content (after its head).
    var contentRange: Range<Int> { (start + Int(headLength))..<end }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes at input indices `range`, in a buffer holding the input whose first index is `base`.
    /// Checked in release builds too (slicing an unsafe buffer is not): rows come from the C walker, and a row outside
    /// its input must stop the process rather than read past the buffer.
    func bytes(at range: Range<Int>, base: Int) -> UnsafeBufferPointer<UInt8> {
        let lower = range.lowerBound - base, upper = range.upperBound - base
        precondition(lower >= 0 && upper <= count, "CBOR row outside its input")
        return UnsafeBufferPointer(rebasing: self[lower..<upper])
    }

    /// Whether both buffers hold the same bytes, compared with memcmp (`elementsEqual` goes byte by byte through
    /// iterators, which showed in profiles of map-key lookups).
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let first = baseAddress, let second = other.baseAddress else { return true }
        return memcmp(first, second, count) == 0
    }
}
