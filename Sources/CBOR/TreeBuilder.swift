import CCBORWalker

/// Builds the node table from walker events. The walker has already checked structure, so
/// recursion depth is bounded by `CBORLimits.maxDepth`; the checks here only guard against
/// an inconsistent event list and never trust it for memory safety.
struct TreeBuilder {
    // The table, shared by every walk appended to this builder.
    private var nodes: [CBORNode] = []
    private var children: [Int32] = []
    private var joined: [[UInt8]] = []

    /// Appends the items of one walk over `input` (exactly one item); returns its row. `buffer` holds the same bytes.
    /// After a throw the table holds a partial walk: every caller stops decoding and drops the builder.
    mutating func append(input: ArraySlice<UInt8>, buffer: UnsafeBufferPointer<UInt8>,
                         events: UnsafeBufferPointer<cbor_walk_event>) throws(CBORDecodingError) -> Int {
        let bounds = input.startIndex..<input.endIndex
        guard buffer.count == input.count else { throw TreeWalk.inconsistent(bounds) }
        // Rows and child slots are Int32: the walker's item limit keeps far below that, but never trust it here.
        guard events.count < Int(Int32.max) / 2 - max(nodes.count, children.count) else { throw TreeWalk.inconsistent(bounds) }
        // Each event makes at most one node and fills at most one child slot. Both arrays grow by the event count, are
        // written through pointers (an append or a subscript write checks uniqueness every time) and are trimmed to
        // what the walk used. They are moved into locals for the walk, so the two buffers are two variables' accesses.
        var nodes: [CBORNode] = [], children: [Int32] = [], strings: [[UInt8]] = []
        swap(&nodes, &self.nodes)
        swap(&children, &self.children)
        swap(&strings, &joined)
        defer {
            swap(&nodes, &self.nodes)
            swap(&children, &self.children)
            swap(&strings, &joined)
        }
        nodes.append(contentsOf: repeatElement(CBORNode(value: 0, start: 0, end: 0, firstChild: 0, childCount: 0, kind: 0, headLength: 0),
                                               count: events.count))
        children.append(contentsOf: repeatElement(0, count: events.count))
        let result = nodes.withUnsafeMutableBufferPointer { nodeBuffer in
            children.withUnsafeMutableBufferPointer { slotBuffer in
                // The walk starts at the first placeholder row and slot.
                var walk = TreeWalk(input: input, bounds: bounds, buffer: buffer, events: events,
                                    nodes: nodeBuffer, nodeCount: nodeBuffer.count - events.count,
                                    slots: slotBuffer, slotCount: slotBuffer.count - events.count)
                swap(&walk.joined, &strings)
                defer { swap(&walk.joined, &strings) }
                return Result { () throws(CBORDecodingError) in
                    let root = try walk.item()
                    guard walk.next == events.count, walk.nodes[root].end == bounds.upperBound else { throw TreeWalk.inconsistent(bounds) }
                    return (root: root, nodeCount: walk.nodeCount, slotCount: walk.slotCount)
                }
            }
        }
        let walk = try result.get()
        nodes.removeLast(nodes.count - walk.nodeCount)
        children.removeLast(children.count - walk.slotCount)
        return walk.root
    }

    /// The finished table over `input`, which holds the input of every walk appended.
    func tree(input: ArraySlice<UInt8>) -> CBORTree {
        CBORTree(input: input, nodes: nodes, children: children, joined: joined)
    }
}

/// One walk's events turned into rows of the table, written through the table's buffers. Every write is checked
/// against the buffers' capacity: an event list that claims more items than it has throws instead of writing.
private struct TreeWalk {
    let input: ArraySlice<UInt8>
    let bounds: Range<Int>
    let buffer: UnsafeBufferPointer<UInt8>
    let events: UnsafeBufferPointer<cbor_walk_event>
    var next = 0
    let nodes: UnsafeMutableBufferPointer<CBORNode>
    var nodeCount: Int
    let slots: UnsafeMutableBufferPointer<Int32>
    var slotCount: Int
    /// The table's joined indefinite-length strings, moved in for the walk.
    var joined: [[UInt8]] = []

    init(input: ArraySlice<UInt8>, bounds: Range<Int>, buffer: UnsafeBufferPointer<UInt8>, events: UnsafeBufferPointer<cbor_walk_event>,
         nodes: UnsafeMutableBufferPointer<CBORNode>, nodeCount: Int, slots: UnsafeMutableBufferPointer<Int32>, slotCount: Int) {
        (self.input, self.bounds, self.buffer, self.events) = (input, bounds, buffer, events)
        (self.nodes, self.nodeCount, self.slots, self.slotCount) = (nodes, nodeCount, slots, slotCount)
    }

    static func inconsistent(_ bounds: Range<Int>) -> CBORDecodingError {
        CBORDecodingError(.malformed, offset: bounds.lowerBound)
    }

    // The per-event checks are static functions of the bounds: a method call on `self` from a mutating method copies
    // the whole walk to the stack for every event.

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

    private mutating func nextEvent() throws(CBORDecodingError) -> cbor_walk_event {
        guard next < events.count else { throw Self.inconsistent(bounds) }
        defer { next += 1 }
        return events[next]
    }

    /// Appends the next item (and everything inside it) and returns its row.
    mutating func item() throws(CBORDecodingError) -> Int {
        let event = try nextEvent()
        let (start, contentStart) = try Self.position(of: event, in: bounds)
        guard nodeCount < nodes.count else { throw Self.inconsistent(bounds) }
        let row = nodeCount
        nodeCount += 1
        nodes[row] = CBORNode(value: event.value, start: start, end: contentStart, firstChild: 0, childCount: 0,
                              kind: event.kind, headLength: event.head_length)
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
            try checkKeys(row)
        case CBOR_WALK_TAG:
            end = nodes[try item()].end
        case CBOR_WALK_BYTES_INDEF, CBOR_WALK_TEXT_INDEF:
            nodes[row].firstChild = Int32(joined.count)
            joined.append(try indefiniteString(isText: Int(event.kind) == CBOR_WALK_TEXT_INDEF, end: &end))
        case CBOR_WALK_ARRAY_INDEF, CBOR_WALK_MAP_INDEF:
            let isMap = Int(event.kind) == CBOR_WALK_MAP_INDEF
            try indefiniteContainer(row: row, isMap: isMap, end: &end)
            nodes[row].kind = UInt8(isMap ? CBOR_WALK_MAP : CBOR_WALK_ARRAY)
            if isMap { try checkKeys(row) }
        default:
            throw Self.inconsistent(bounds)
        }
        guard end <= bounds.upperBound else { throw Self.inconsistent(bounds) }
        nodes[row].end = end
        return row
    }

    private func checkKeys(_ row: Int) throws(CBORDecodingError) {
        try MapKeys.checkUnique(map: row, nodes: UnsafeBufferPointer(rebasing: nodes[..<nodeCount]),
                                children: UnsafeBufferPointer(rebasing: slots[..<slotCount]), joined: joined, input: input, buffer: buffer)
    }

    /// A definite-length array or map: a block of `slots` child rows, reserved once the declared count is checked
    /// against the input and the table. Returns the end of the last child.
    private mutating func definiteContainer(row: Int, slots count: UInt64, contentStart: Int) throws(CBORDecodingError) -> Int {
        guard count <= UInt64(slots.count - slotCount) else { throw Self.inconsistent(bounds) }
        let first = slotCount
        let count = Int(count)
        nodes[row].firstChild = Int32(first)
        nodes[row].childCount = Int32(count)
        slotCount += count
        var end = contentStart
        for slot in first..<(first + count) {
            let child = try item()
            slots[slot] = Int32(child)
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
        guard rows.count <= slots.count - slotCount else { throw Self.inconsistent(bounds) }
        nodes[row].firstChild = Int32(slotCount)
        nodes[row].childCount = Int32(rows.count)
        for child in rows {
            slots[slotCount] = child
            slotCount += 1
        }
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
