import CCBORWalker

/// Decodes untrusted CBOR: the C walker (cbor_walker.c, on libcbor's streaming decoder) checks structure, limits,
/// UTF-8 and map keys and writes a node table that `TreeBuilder` collects; `CBORItem`s are rows of it whose `raw`
/// slices point into the caller's buffer.
public enum CBORDecoder {
    /// How to decode: the limits, and the texts to read as stored Strings.
    public struct Options: Sendable {
        /// The bounds the input is checked against.
        public var limits: CBORLimits
        /// Texts the format repeats: a text string equal to one of them reads (`CBORItem/text`, `CBORItem/value`) as
        /// the vocabulary's String. Items embedded in the input (`CBORItem/decodeEmbedded(limits:)`,
        /// `CBORArray/decodeEachEmbedded(limits:)`) are read with the same vocabulary and, unless given others, the
        /// same limits.
        public var vocabulary: TextVocabulary?

        /// Options with `limits` and, when given, a `vocabulary`.
        public init(limits: CBORLimits = .default, vocabulary: TextVocabulary? = nil) {
            self.limits = limits
            self.vocabulary = vocabulary
        }
    }

    /// Decodes exactly one item occupying all of `bytes`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of `limits`.
    public static func decode(_ bytes: [UInt8], limits: CBORLimits = .default) throws -> CBORItem {
        try decodeTyped(bytes[...], options: Options(limits: limits))
    }

    /// Decodes exactly one item occupying all of `bytes`; offsets (in `raw` and in errors) are
    /// indices of `bytes`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of `limits`.
    public static func decode(_ bytes: ArraySlice<UInt8>, limits: CBORLimits = .default) throws -> CBORItem {
        try decodeTyped(bytes, options: Options(limits: limits))
    }

    /// Decodes exactly one item occupying all of `bytes` with `options`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of the options' limits.
    public static func decode(_ bytes: [UInt8], options: Options) throws -> CBORItem {
        try decodeTyped(bytes[...], options: options)
    }

    /// Decodes exactly one item occupying all of `bytes` with `options`; offsets (in `raw` and in errors) are indices
    /// of `bytes`.
    ///
    /// Throws `CBORDecodingError` if the input is not exactly one well-formed item, is not valid
    /// UTF-8 in a text string, has a duplicate map key, or exceeds one of the options' limits.
    public static func decode(_ bytes: ArraySlice<UInt8>, options: Options) throws -> CBORItem {
        try decodeTyped(bytes, options: options)
    }

    static func decodeTyped(_ bytes: ArraySlice<UInt8>, options: Options) throws(CBORDecodingError) -> CBORItem {
        var builder = TreeBuilder()
        let root = try builder.append(bytes, limits: options.limits)
        return CBORItem(tree: builder.tree(input: bytes, vocabulary: options.vocabulary, limits: options.limits), row: root)
    }

    /// Decodes the item embedded in each of `items` (`#6.24(bstr .cbor X)`) into one shared node table, in order, with
    /// the vocabulary of `items`' table; throws what `decodeEmbedded` throws for the first element that fails. Used
    /// where a response holds many small embedded items (IssuerSignedItemBytes): one table instead of one per element.
    static func decodeEachEmbedded(_ items: CBORArray, limits: CBORLimits) throws(CBORDecodingError) -> [EmbeddedCBOR] {
        var shared = TreeBuilder()
        if let roots = try shared.appendEach(embeddedIn: items, limits: limits) {
            // Every element is tag 24 around a definite byte string, whose content row follows the tag's.
            let tree = shared.tree(input: items.tree.input, vocabulary: items.tree.vocabulary, limits: limits)
            var result: [EmbeddedCBOR] = []
            result.reserveCapacity(items.count)
            // Read from the array's rows, without making an item of each element.
            for index in 0..<items.count {
                result.append(EmbeddedCBOR(tagged: items.tree.raw(items.row(index)), item: CBORItem(tree: tree, row: roots[index])))
            }
            return result
        }
        // One element at a time, so the first element that fails does so as it would alone.
        let options = Options(limits: limits, vocabulary: items.tree.vocabulary)
        enum Decoded {
            case shared(tagged: ArraySlice<UInt8>, row: Int)
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
                decoded.append(.shared(tagged: item.raw, row: try builder.append(inner, limits: limits)))
            } else {
                // An indefinite-length byte string's content is a joined copy, not part of the shared input.
                decoded.append(.separate(EmbeddedCBOR(tagged: item.raw, item: try decodeTyped(inner, options: options))))
            }
        }
        let tree = builder.tree(input: items.tree.input, vocabulary: items.tree.vocabulary, limits: limits)
        return decoded.map { element in
            switch element {
            case .shared(let tagged, let row): EmbeddedCBOR(tagged: tagged, item: CBORItem(tree: tree, row: row))
            case .separate(let embedded): embedded
            }
        }
    }
}
