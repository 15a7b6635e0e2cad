import CCBORWalker

/// Duplicate-key detection for decoded maps. Keys are compared by CBOR value, not by their
/// received bytes: `01` and `18 01` are the same key, as are a definite and an indefinite
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
    /// even slots of its block in `children`). `buffer` holds the bytes of `input` (index `input.startIndex` at 0).
    static func checkUnique(map row: Int, nodes: UnsafeBufferPointer<CBORNode>, children: UnsafeBufferPointer<Int32>, joined: [[UInt8]],
                            input: ArraySlice<UInt8>, buffer: UnsafeBufferPointer<UInt8>) throws(CBORDecodingError) {
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
        if pairs <= 8 {
            // Small maps (the common case): pairwise comparison, building neither an array nor a set. Integer and
            // definite text keys (nearly all keys) compare in place; others by identity.
            func sameKey(_ a: Int, _ b: Int) -> Bool {
                let x = nodes[Int(children[first + 2 * a])], y = nodes[Int(children[first + 2 * b])]
                switch (Int(x.kind), Int(y.kind)) {
                case (CBOR_WALK_UINT, CBOR_WALK_UINT), (CBOR_WALK_NEGINT, CBOR_WALK_NEGINT):
                    return x.value == y.value
                case (CBOR_WALK_TEXT, CBOR_WALK_TEXT), (CBOR_WALK_BYTES, CBOR_WALK_BYTES):
                    let (a, b) = (x.contentRange, y.contentRange)
                    let base = input.startIndex
                    return buffer.bytes(at: a, base: base).sameBytes(as: buffer.bytes(at: b, base: base))
                case (CBOR_WALK_UINT, _), (CBOR_WALK_NEGINT, _), (_, CBOR_WALK_UINT), (_, CBOR_WALK_NEGINT):
                    return false
                default:
                    return identity(a) == identity(b)
                }
            }
            for i in 1..<pairs {
                for j in 0..<i where sameKey(i, j) { throw duplicate(i) }
            }
            return
        }
        var seen = Set<Identity>(minimumCapacity: pairs)
        for pair in 0..<pairs where !seen.insert(identity(pair)).inserted {
            throw duplicate(pair)
        }
    }
}
