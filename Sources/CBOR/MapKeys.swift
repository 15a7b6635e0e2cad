import CCBORWalker

/// Duplicate-key detection for the maps the C walker leaves to Swift (`cbor_walker.c`, `check_keys`): the walker
/// compares the keys of small maps whose keys are all integers or definite strings pairwise itself, and defers every
/// other map (more pairs than its cut-off, or a key of another kind) here, where keys are hashed. Keys are compared by
/// CBOR value, not by their received bytes: `01` and `18 01` are the same key, as are a definite and an indefinite
/// text string with the same characters.
enum MapKeys {
    /// A key's value in a comparable form. Text and bytes are compared by their content bytes (not by Swift's
    /// canonical-equivalence `==`); uncommon key types by their deterministic re-encoding.
    enum Identity: Hashable {
        case unsigned(UInt64)
        case negative(UInt64)
        case text(ArraySlice<UInt8>)
        case bytes(ArraySlice<UInt8>)
        case other([UInt8])
    }

    /// Throws `.duplicateMapKey` at the first key equal to an earlier one, for the map at `row` (its keys are the
    /// even slots of its block in `children`).
    static func checkUnique(map row: Int, nodes: UnsafeBufferPointer<CBORNode>, children: UnsafeBufferPointer<Int32>, joined: [[UInt8]],
                            input: ArraySlice<UInt8>) throws(CBORDecodingError) {
        let first = Int(nodes[row].firstChild)
        let pairs = Int(nodes[row].childCount) / 2
        guard pairs > 1 else { return }
        // Exotic keys (arrays, maps, tags, floats, simple values) are compared by re-encoding, which needs a tree.
        var tree: CBORTree?
        func identity(_ pair: Int) -> Identity {
            let key = Int(children[first + 2 * pair])
            let node = nodes[key]
            switch Int(node.kind) {
            case CBOR_WALK_UINT: return .unsigned(node.value)
            case CBOR_WALK_NEGINT: return .negative(node.value)
            case CBOR_WALK_TEXT: return .text(input[node.contentRange])
            case CBOR_WALK_TEXT_INDEF: return .text(joined[Int(node.firstChild)][...])
            case CBOR_WALK_BYTES: return .bytes(input[node.contentRange])
            case CBOR_WALK_BYTES_INDEF: return .bytes(joined[Int(node.firstChild)][...])
            default:
                let snapshot = tree ?? CBORTree(input: input, nodes: Array(nodes), children: Array(children), joined: joined)
                tree = snapshot
                return .other(CBOREncoder.encode(CBORItem(tree: snapshot, row: key).toValue(), sortMapKeys: true))
            }
        }
        func duplicate(_ pair: Int) -> CBORDecodingError {
            CBORDecodingError(.duplicateMapKey, offset: nodes[Int(children[first + 2 * pair])].start)
        }
        var seen = Set<Identity>(minimumCapacity: pairs)
        for pair in 0..<pairs where !seen.insert(identity(pair)).inserted {
            throw duplicate(pair)
        }
    }
}
