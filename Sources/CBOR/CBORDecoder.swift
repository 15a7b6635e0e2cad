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
