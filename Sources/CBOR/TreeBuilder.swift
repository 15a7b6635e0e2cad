import CCBORWalker

/// Builds one node table from walks over parts of one input. The C walker (cbor_walker.c) writes each walk's rows,
/// child slots and chunk ranges; this appends them and finishes what needs Swift values: joining the chunks of
/// indefinite-length strings and checking the keys of maps the walker left to `MapKeys`.
struct TreeBuilder {
    // The table, shared by every walk appended to this builder.
    private var nodes: [CBORNode] = []
    private var children: [Int32] = []
    private var joined: [[UInt8]] = []

    /// Walks `bytes` (exactly one item) and appends its rows; returns the item's row. Offsets in the rows and in
    /// errors are indices of `bytes`. After a throw the table holds a partial walk: every caller stops decoding and
    /// drops the builder.
    mutating func append(_ bytes: ArraySlice<UInt8>, limits: CBORLimits) throws(CBORDecodingError) -> Int {
        guard bytes.count <= limits.maxInputBytes else {
            throw CBORDecodingError(.inputTooLarge, offset: bytes.startIndex + max(limits.maxInputBytes, 0), limit: limits.maxInputBytes)
        }
        guard fits(bytes.count) else {
            throw CBORDecodingError(.itemLimitExceeded, offset: bytes.startIndex, limit: limits.maxTotalItems)
        }
        let root = nodes.count
        try walk(bytes, limits: limits) { data, walkLimits, out, errorOffset in
            cbor_walk_tree(data.baseAddress, data.count, walkLimits, out, errorOffset)
        }.get()
        return root
    }

    /// Walks the content of every element of `items` (each tag 24 around a definite byte string) into the table with
    /// one call to the walker, and returns their rows. Returns nil without a throw when an element has another shape
    /// or a walk fails: the caller then decodes the elements one at a time, which reports the failure as it is.
    /// After nil or a throw the table holds a partial walk.
    mutating func appendEach(embeddedIn items: CBORArray, limits: CBORLimits) throws(CBORDecodingError) -> [Int]? {
        let tree = items.tree, input = tree.input, count = items.count
        guard count > 0, fits(input.count) else { return nil }
        // Starts, lengths (offsets in `input`) and, from the walker, root rows.
        var ranges = [Int](repeating: 0, count: 3 * count)
        for index in 0..<count {
            let row = items.row(index)
            guard Int(tree.nodes[row].kind) == CBOR_WALK_TAG, tree.nodes[row].value == 24, row + 1 < tree.nodes.count else { return nil }
            let content = tree.nodes[row + 1]
            guard Int(content.kind) == CBOR_WALK_BYTES, content.contentRange.count <= limits.maxInputBytes else { return nil }
            ranges[index] = content.contentRange.lowerBound - input.startIndex
            ranges[count + index] = content.contentRange.count
        }
        let status = try ranges.withUnsafeMutableBufferPointer { (ranges) throws(CBORDecodingError) in
            try walk(input, limits: limits) { data, walkLimits, out, errorOffset in
                cbor_walk_tree_each(data.baseAddress, ranges.baseAddress, count, walkLimits, out, errorOffset)
            }
        }
        guard case .success = status else { return nil }
        return Array(ranges[(2 * count)...])
    }

    /// Whether a walk over `length` bytes keeps rows and slots within Int32 (a walk writes at most one of each per byte).
    private func fits(_ length: Int) -> Bool {
        length < Int(Int32.max) / 2 - max(nodes.count, children.count)
    }

    /// Runs `walker` over `input` with an output whose bases continue this table, and appends what it wrote. A walker
    /// error is returned (not thrown); a duplicate key found here after the walk is thrown.
    private mutating func walk(
        _ input: ArraySlice<UInt8>, limits: CBORLimits,
        _ walker: (UnsafeBufferPointer<UInt8>, UnsafePointer<cbor_walk_limits>, UnsafeMutablePointer<cbor_tree_output>,
                   UnsafeMutablePointer<Int>) -> Int32
    ) throws(CBORDecodingError) -> Result<Void, CBORDecodingError> {
        var walkLimits = cbor_walk_limits(max_depth: max(limits.maxDepth, 0),
                                          max_items_per_container: max(limits.maxItemsPerContainer, 0),
                                          max_total_items: max(limits.maxTotalItems, 0))
        // Small inputs (an IssuerSignedItem, a COSE header) fit the stack scratch buffers; the walker mallocs past
        // them. 24 rows of 40 bytes and 64 slots stay within the 1 KiB Swift places on the stack without a check.
        let result: Result<Result<Void, CBORDecodingError>, CBORDecodingError> = input.withUnsafeBufferPointer { data in
            withUnsafeTemporaryAllocation(of: CBORNode.self, capacity: 24) { nodeScratch in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { slotScratch in
                    var out = cbor_tree_output()
                    out.nodes = cbor_tree_buffer(items: nodeScratch.baseAddress, count: 0, capacity: nodeScratch.count, owned: 0)
                    out.slots = cbor_tree_buffer(items: slotScratch.baseAddress, count: 0, capacity: slotScratch.count, owned: 0)
                    (out.row_base, out.slot_base, out.input_base) = (nodes.count, children.count, input.startIndex)
                    defer { cbor_tree_output_release(&out) }
                    var errorOffset = 0
                    let status = walker(data, &walkLimits, &out, &errorOffset)
                    if status == CBOR_WALK_OK {
                        return Result { () throws(CBORDecodingError) in try take(out, input: input); return .success(()) }
                    }
                    let error = CBORDecodingError(Self.errorKind(status), offset: input.startIndex + errorOffset, limit: Self.limit(status, limits))
                    let semantic = status == CBOR_WALK_ERR_UTF8 || status == CBOR_WALK_ERR_DUPLICATE_KEY
                    guard semantic, out.deferred.count > 0 else { return .success(.failure(error)) }
                    // The structure is sound, so the table is whole. The maps left to `MapKeys` closed before the
                    // walker's error (it defers none after one): a duplicate among them comes first.
                    return Result { () throws(CBORDecodingError) in
                        try take(out, input: input)
                        return .failure(error)
                    }
                }
            }
        }
        return try result.get()
    }

    /// Appends one successful walk's output.
    private mutating func take(_ out: cbor_tree_output, input: ArraySlice<UInt8>) throws(CBORDecodingError) {
        let firstRow = nodes.count
        nodes.append(contentsOf: UnsafeBufferPointer(start: out.nodes.items?.assumingMemoryBound(to: CBORNode.self), count: out.nodes.count))
        children.append(contentsOf: UnsafeBufferPointer(start: out.slots.items?.assumingMemoryBound(to: Int32.self), count: out.slots.count))
        if out.indefinite_strings > 0 {
            let chunks = UnsafeBufferPointer(start: out.chunks.items?.assumingMemoryBound(to: cbor_tree_chunk.self), count: out.chunks.count)
            try joinChunks(chunks, from: firstRow, input: input)
        }
        guard out.deferred.count > 0 else { return }
        let deferred = UnsafeBufferPointer(start: out.deferred.items?.assumingMemoryBound(to: Int32.self), count: out.deferred.count)
        let joined = joined
        try nodes.withUnsafeBufferPointer { (nodes) throws(CBORDecodingError) in
            try children.withUnsafeBufferPointer { (children) throws(CBORDecodingError) in
                for row in deferred {
                    // MapKeys reads through unchecked buffers: the walker's rows are checked here first.
                    try Self.checkBlock(of: Int(row), nodes: nodes, children: children, input: input)
                    try MapKeys.checkUnique(map: Int(row), nodes: nodes, children: children, joined: joined, input: input)
                }
            }
        }
    }

    /// Throws unless `row` is a map whose child block, child rows and their byte ranges lie inside the table and input.
    private static func checkBlock(of row: Int, nodes: UnsafeBufferPointer<CBORNode>, children: UnsafeBufferPointer<Int32>,
                                   input: ArraySlice<UInt8>) throws(CBORDecodingError) {
        let malformed = CBORDecodingError(.malformed, offset: input.startIndex)
        guard row >= 0, row < nodes.count, Int(nodes[row].kind) == CBOR_WALK_MAP else { throw malformed }
        let first = Int(nodes[row].firstChild), count = Int(nodes[row].childCount)
        guard first >= 0, count >= 0, count <= children.count - first else { throw malformed }
        for slot in first..<(first + count) {
            let child = Int(children[slot])
            guard child >= 0, child < nodes.count, input.startIndex <= nodes[child].start, nodes[child].start <= nodes[child].end,
                  nodes[child].end <= input.endIndex else { throw malformed }
        }
    }

    /// Gives each indefinite-length string of the walk (rows from `firstRow`) its content: the walker's chunk ranges,
    /// joined into `joined`, which the row's `firstChild` then indexes.
    private mutating func joinChunks(_ chunks: UnsafeBufferPointer<cbor_tree_chunk>, from firstRow: Int,
                                     input: ArraySlice<UInt8>) throws(CBORDecodingError) {
        for row in firstRow..<nodes.count {
            let kind = Int(nodes[row].kind)
            guard kind == CBOR_WALK_BYTES_INDEF || kind == CBOR_WALK_TEXT_INDEF else { continue }
            let first = Int(nodes[row].firstChild), count = Int(nodes[row].childCount)
            guard first >= 0, count >= 0, count <= chunks.count - first else { throw CBORDecodingError(.malformed, offset: nodes[row].start) }
            var content: [UInt8] = []
            for chunk in chunks[first..<(first + count)] {
                guard input.startIndex <= chunk.start, chunk.start <= chunk.end, chunk.end <= input.endIndex else {
                    throw CBORDecodingError(.malformed, offset: nodes[row].start)
                }
                content.append(contentsOf: input[chunk.start..<chunk.end])
            }
            nodes[row].firstChild = Int32(joined.count)
            nodes[row].childCount = 0
            joined.append(content)
        }
    }

    /// The finished table over `input`, which holds the input of every walk appended; its texts are read through
    /// `vocabulary`, and what is embedded in it is decoded with `limits`.
    func tree(input: ArraySlice<UInt8>, vocabulary: TextVocabulary?, limits: CBORLimits) -> CBORTree {
        CBORTree(input: input, nodes: nodes, children: children, joined: joined, vocabulary: vocabulary, limits: limits)
    }

    /// The ceiling a walker status reports as exceeded, if any.
    private static func limit(_ status: Int32, _ limits: CBORLimits) -> Int? {
        switch Int(status) {
        case CBOR_WALK_ERR_DEPTH: limits.maxDepth
        case CBOR_WALK_ERR_CONTAINER: limits.maxItemsPerContainer
        case CBOR_WALK_ERR_ITEMS: limits.maxTotalItems
        default: nil
        }
    }

    private static func errorKind(_ status: Int32) -> CBORDecodingError.Kind {
        switch Int(status) {
        case CBOR_WALK_ERR_TRUNCATED: .truncated
        case CBOR_WALK_ERR_TRAILING: .trailingBytes
        case CBOR_WALK_ERR_DEPTH: .depthLimitExceeded
        case CBOR_WALK_ERR_CONTAINER: .containerLimitExceeded
        case CBOR_WALK_ERR_ITEMS, CBOR_WALK_ERR_NO_MEMORY: .itemLimitExceeded
        case CBOR_WALK_ERR_UTF8: .invalidUTF8
        case CBOR_WALK_ERR_DUPLICATE_KEY: .duplicateMapKey
        default: .malformed
        }
    }
}
