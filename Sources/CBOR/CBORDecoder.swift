import CCBORWalker

/// Decodes untrusted CBOR in two steps: the C walker (cbor_walker.c, on libcbor's streaming
/// decoder) checks structure and limits and records a flat event list; `TreeBuilder` then
/// turns the events into `CBORItem`s whose `raw` slices point into the caller's buffer.
public enum CBORDecoder {
    /// Decodes exactly one item occupying all of `bytes`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of `limits`.
    public static func decode(_ bytes: [UInt8], limits: CBORLimits = .default) throws -> CBORItem {
        try decode(bytes[...], limits: limits)
    }

    /// Decodes exactly one item occupying all of `bytes`; offsets (in `raw` and in errors) are
    /// indices of `bytes`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of `limits`.
    public static func decode(_ bytes: ArraySlice<UInt8>, limits: CBORLimits = .default) throws -> CBORItem {
        try decodeTyped(bytes, limits: limits)
    }

    static func decodeTyped(_ bytes: ArraySlice<UInt8>, limits: CBORLimits) throws(CBORDecodingError) -> CBORItem {
        var builder = TreeBuilder()
        let root = try walk(bytes, limits: limits, into: &builder)
        return CBORItem(tree: builder.tree(input: bytes), row: root)
    }

    /// Decodes the item embedded in each of `items` (`#6.24(bstr .cbor X)`) into one shared node table, in order;
    /// throws what `decodeEmbedded` throws for the first element that fails. Used where a response holds many small
    /// embedded items (IssuerSignedItemBytes): one table instead of one per element.
    static func decodeEachEmbedded(_ items: CBORArray, limits: CBORLimits) throws(CBORDecodingError) -> [EmbeddedCBOR] {
        enum Decoded {
            case shared(tagged: ArraySlice<UInt8>, inner: ArraySlice<UInt8>, row: Int)
            case separate(EmbeddedCBOR)
        }
        var builder = TreeBuilder()
        var decoded: [Decoded] = []
        decoded.reserveCapacity(items.count)
        for item in items {
            guard let (tag, content) = item.tag, tag == 24, let inner = content.bytes else {
                throw CBORDecodingError(.notEmbeddedCBOR, offset: item.byteRange.lowerBound)
            }
            if Int(content.node.kind) == CBOR_WALK_BYTES {
                decoded.append(.shared(tagged: item.raw, inner: inner, row: try walk(inner, limits: limits, into: &builder)))
            } else {
                // An indefinite-length byte string's content is a joined copy, not part of the shared input.
                decoded.append(.separate(EmbeddedCBOR(tagged: item.raw, inner: inner, item: try decodeTyped(inner, limits: limits))))
            }
        }
        let tree = builder.tree(input: items.tree.input)
        return decoded.map { element in
            switch element {
            case .shared(let tagged, let inner, let row): EmbeddedCBOR(tagged: tagged, inner: inner, item: CBORItem(tree: tree, row: row))
            case .separate(let embedded): embedded
            }
        }
    }

    /// Walks `bytes` (exactly one item) and appends its nodes to `builder`; returns the item's row.
    private static func walk(_ bytes: ArraySlice<UInt8>, limits: CBORLimits,
                             into builder: inout TreeBuilder) throws(CBORDecodingError) -> Int {
        guard bytes.count <= limits.maxInputBytes else {
            throw CBORDecodingError(.inputTooLarge, offset: bytes.startIndex + max(limits.maxInputBytes, 0), limit: limits.maxInputBytes)
        }
        var walkLimits = cbor_walk_limits(
            max_depth: clamped(limits.maxDepth),
            max_items_per_container: clamped(limits.maxItemsPerContainer),
            max_total_items: clamped(limits.maxTotalItems)
        )
        let result: Result<Int, CBORDecodingError> = bytes.withUnsafeBufferPointer { input in
            // Small inputs (an IssuerSignedItem, a COSE header) fit the stack scratch buffer; the walker mallocs if it
            // needs more. 42 events of 24 bytes stay within the 1 KiB Swift places on the stack without a check.
            withUnsafeTemporaryAllocation(of: cbor_walk_event.self, capacity: 42) { scratch in
                var events = cbor_walk_events(events: scratch.baseAddress, count: 0, capacity: scratch.count, owned: 0)
                defer { cbor_walk_events_release(&events) }
                var errorOffset = 0
                let status = cbor_walk(input.baseAddress, input.count, &walkLimits, &events, &errorOffset)
                guard status == CBOR_WALK_OK else {
                    return .failure(CBORDecodingError(walkErrorKind(status), offset: bytes.startIndex + errorOffset,
                                                      limit: walkLimit(status, limits)))
                }
                let list = UnsafeBufferPointer(start: events.events, count: events.count)
                return Result { () throws(CBORDecodingError) in try builder.append(input: bytes, buffer: input, events: list) }
            }
        }
        return try result.get()
    }

    private static func clamped(_ limit: Int) -> Int { max(limit, 0) }

    /// The ceiling a walker status reports as exceeded, if any.
    private static func walkLimit(_ status: Int32, _ limits: CBORLimits) -> Int? {
        switch Int(status) {
        case CBOR_WALK_ERR_DEPTH: limits.maxDepth
        case CBOR_WALK_ERR_CONTAINER: limits.maxItemsPerContainer
        case CBOR_WALK_ERR_ITEMS: limits.maxTotalItems
        default: nil
        }
    }

    private static func walkErrorKind(_ status: Int32) -> CBORDecodingError.Kind {
        switch Int(status) {
        case CBOR_WALK_ERR_TRUNCATED: .truncated
        case CBOR_WALK_ERR_TRAILING: .trailingBytes
        case CBOR_WALK_ERR_DEPTH: .depthLimitExceeded
        case CBOR_WALK_ERR_CONTAINER: .containerLimitExceeded
        case CBOR_WALK_ERR_ITEMS, CBOR_WALK_ERR_NO_MEMORY: .itemLimitExceeded
        default: .malformed
        }
    }
}

/// Builds the node table from walker events. The walker has already checked structure, so
/// recursion depth is bounded by `CBORLimits.maxDepth`; the checks here only guard against
/// an inconsistent event list and never trust it for memory safety.
struct TreeBuilder {
    // The walk being appended: its input, the same bytes as a buffer (valid only during `append`, so content is read
    // without retaining the input for every string) and its events.
    private var input: ArraySlice<UInt8> = []
    // The input's indices. The per-event checks are static functions of these: a method call on `self` from a
    // mutating method copies the whole builder to the stack for every event.
    private var bounds: Range<Int> = 0..<0
    private var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var events = UnsafeBufferPointer<cbor_walk_event>(start: nil, count: 0)
    private var next = 0
    // The table, shared by every walk appended to this builder.
    private var nodes: [CBORNode] = []
    private var children: [Int32] = []
    private var joined: [[UInt8]] = []

    /// Appends the items of one walk over `input` (exactly one item); returns its row.
    mutating func append(input: ArraySlice<UInt8>, buffer: UnsafeBufferPointer<UInt8>,
                         events: UnsafeBufferPointer<cbor_walk_event>) throws(CBORDecodingError) -> Int {
        guard buffer.count == input.count else { throw CBORDecodingError(.malformed, offset: input.startIndex) }
        self.input = input
        self.bounds = input.startIndex..<input.endIndex
        self.buffer = buffer
        self.events = events
        next = 0
        defer {
            self.buffer = UnsafeBufferPointer(start: nil, count: 0)
            self.events = UnsafeBufferPointer(start: nil, count: 0)
        }
        // Rows and child slots are Int32: the walker's item limit keeps far below that, but never trust it here.
        guard events.count < Int(Int32.max) / 2 - nodes.count else { throw Self.inconsistent(bounds) }
        // The event count bounds both; several walks into one table grow it geometrically.
        if nodes.capacity < nodes.count + events.count { nodes.reserveCapacity(max(nodes.count + events.count, 2 * nodes.capacity)) }
        if children.capacity < children.count + events.count {
            children.reserveCapacity(max(children.count + events.count, 2 * children.capacity))
        }
        let root = try item()
        guard next == events.count, nodes[root].end == input.endIndex else {
            throw Self.inconsistent(bounds)
        }
        return root
    }

    /// The finished table over `input`, which holds the input of every walk appended.
    func tree(input: ArraySlice<UInt8>) -> CBORTree {
        CBORTree(input: input, nodes: nodes, children: children, joined: joined)
    }

    private static func inconsistent(_ bounds: Range<Int>) -> CBORDecodingError {
        CBORDecodingError(.malformed, offset: bounds.lowerBound)
    }

    private mutating func nextEvent() throws(CBORDecodingError) -> cbor_walk_event {
        guard next < events.count else { throw Self.inconsistent(bounds) }
        defer { next += 1 }
        return events[next]
    }

    /// Input index of an event's head and of its first content byte.
    private static func position(of event: cbor_walk_event, in bounds: Range<Int>) throws(CBORDecodingError) -> (start: Int, content: Int) {
        let count = UInt64(bounds.count)
        guard event.offset < count, UInt64(event.head_length) <= count - event.offset else { throw inconsistent(bounds) }
        let start = bounds.lowerBound + Int(event.offset)
        return (start, start + Int(event.head_length))
    }

    /// The content range of a definite string event.
    private static func content(of event: cbor_walk_event, from start: Int, in bounds: Range<Int>) throws(CBORDecodingError) -> Range<Int> {
        guard event.value <= UInt64(bounds.upperBound - start) else { throw inconsistent(bounds) }
        return start..<(start + Int(event.value))
    }

    /// Appends the next item (and everything inside it) and returns its row.
    private mutating func item() throws(CBORDecodingError) -> Int {
        let event = try nextEvent()
        let (start, contentStart) = try Self.position(of: event, in: bounds)
        let row = nodes.count
        nodes.append(CBORNode(value: event.value, start: start, end: contentStart, firstChild: 0, childCount: 0,
                              kind: event.kind, headLength: event.head_length))
        var end = contentStart

        switch Int(event.kind) {
        case CBOR_WALK_UINT, CBOR_WALK_NEGINT, CBOR_WALK_SIMPLE, CBOR_WALK_FALSE, CBOR_WALK_TRUE, CBOR_WALK_NULL,
             CBOR_WALK_UNDEFINED, CBOR_WALK_FLOAT:
            break
        case CBOR_WALK_BYTES:
            end = try Self.content(of: event, from: contentStart, in: bounds).upperBound
        case CBOR_WALK_TEXT:
            let range = try Self.content(of: event, from: contentStart, in: bounds)
            if let bad = UTF8Validation.firstInvalidOffset(buffer.bytes(at: range, base: bounds.lowerBound)) {
                throw CBORDecodingError(.invalidUTF8, offset: range.lowerBound + bad)
            }
            end = range.upperBound
        case CBOR_WALK_ARRAY:
            end = try definiteContainer(row: row, slots: event.value, contentStart: contentStart)
        case CBOR_WALK_MAP:
            guard event.value <= UInt64(bounds.count) else { throw Self.inconsistent(bounds) }
            end = try definiteContainer(row: row, slots: 2 * event.value, contentStart: contentStart)
            try MapKeys.checkUnique(map: row, nodes: nodes, children: children, joined: joined, input: input, buffer: buffer)
        case CBOR_WALK_TAG:
            end = nodes[try item()].end
        case CBOR_WALK_BYTES_INDEF, CBOR_WALK_TEXT_INDEF:
            nodes[row].firstChild = Int32(joined.count)
            joined.append(try indefiniteString(isText: Int(event.kind) == CBOR_WALK_TEXT_INDEF, end: &end))
        case CBOR_WALK_ARRAY_INDEF, CBOR_WALK_MAP_INDEF:
            let isMap = Int(event.kind) == CBOR_WALK_MAP_INDEF
            try indefiniteContainer(row: row, isMap: isMap, end: &end)
            nodes[row].kind = UInt8(isMap ? CBOR_WALK_MAP : CBOR_WALK_ARRAY)
            if isMap { try MapKeys.checkUnique(map: row, nodes: nodes, children: children, joined: joined, input: input, buffer: buffer) }
        default:
            throw Self.inconsistent(bounds)
        }
        guard end <= bounds.upperBound else { throw Self.inconsistent(bounds) }
        nodes[row].end = end
        return row
    }

    /// A definite-length array or map: a block of `slots` child rows, reserved once the declared count is checked
    /// against the input. Returns the end of the last child.
    private mutating func definiteContainer(row: Int, slots: UInt64, contentStart: Int) throws(CBORDecodingError) -> Int {
        guard slots <= UInt64(bounds.count) else { throw Self.inconsistent(bounds) }
        let first = children.count
        let count = Int(slots)
        nodes[row].firstChild = Int32(first)
        nodes[row].childCount = Int32(count)
        children.append(contentsOf: repeatElement(0, count: count))
        var end = contentStart
        for slot in first..<(first + count) {
            let child = try item()
            children[slot] = Int32(child)
            end = nodes[child].end
        }
        return end
    }

    /// The chunks of an indefinite-length byte or text string, joined; `end` moves past the `break`.
    private mutating func indefiniteString(isText: Bool, end: inout Int) throws(CBORDecodingError) -> [UInt8] {
        var joined: [UInt8] = []
        while let chunk = try nextUnlessBreak(&end) {
            let (_, chunkContent) = try Self.position(of: chunk, in: bounds)
            let range = try Self.content(of: chunk, from: chunkContent, in: bounds)
            // RFC 8949 §3.2.3: each chunk is a text string, so each must be valid UTF-8.
            if isText, let bad = UTF8Validation.firstInvalidIndex(input[range]) {
                throw CBORDecodingError(.invalidUTF8, offset: bad)
            }
            joined.append(contentsOf: input[range])
        }
        return joined
    }

    /// An indefinite-length array or map up to its `break`; `end` moves past it. Its children are gathered first
    /// (their own blocks are appended while they are built) and then stored as one block.
    private mutating func indefiniteContainer(row: Int, isMap: Bool, end: inout Int) throws(CBORDecodingError) {
        var rows: [Int32] = []
        while try !atBreak(&end) {
            rows.append(Int32(try item()))
            if isMap { rows.append(Int32(try item())) }
        }
        nodes[row].firstChild = Int32(children.count)
        nodes[row].childCount = Int32(rows.count)
        children.append(contentsOf: rows)
    }

    /// True (and consumes it, setting `end` past it) if the next event is a `break`.
    private mutating func atBreak(_ end: inout Int) throws(CBORDecodingError) -> Bool {
        guard next < events.count else { throw Self.inconsistent(bounds) }
        let event = events[next]
        guard Int(event.kind) == CBOR_WALK_BREAK else { return false }
        next += 1
        end = try Self.position(of: event, in: bounds).start + 1
        return true
    }

    /// The next chunk event of an indefinite string, or nil at its `break`.
    private mutating func nextUnlessBreak(_ end: inout Int) throws(CBORDecodingError) -> cbor_walk_event? {
        if try atBreak(&end) { return nil }
        let chunk = try nextEvent()
        let kind = Int(chunk.kind)
        guard kind == CBOR_WALK_BYTES || kind == CBOR_WALK_TEXT else { throw Self.inconsistent(bounds) }
        return chunk
    }
}
