/// The result of decoding a tag-24 item (`#6.24(bstr .cbor X)`): both the outer tagged bytes
/// and the inner bytes, for hashing exactly what was received.
public struct EmbeddedCBOR: Sendable {
    /// The whole `d8 18 <bstr>` item as received (hash this for IssuerSignedItemBytes).
    public let tagged: ArraySlice<UInt8>
    /// The decoded inner item. For a definite-length byte string its `raw` slices index into
    /// the original buffer; for an indefinite one, into the concatenated chunks.
    public let item: CBORItem

    /// The byte string's content. The decoder refuses trailing bytes, so the item spans all of it: this is the item's
    /// `raw` (kept once rather than as a second slice of the same bytes).
    public var inner: ArraySlice<UInt8> { item.raw }
}

extension CBORItem {
    /// Decodes the item X embedded in this `#6.24(bstr .cbor X)` item, with the vocabulary this item was decoded with
    /// and `limits`, by default the limits it was decoded with (the operator's ceilings hold inside embedded items too).
    ///
    /// Throws `.notEmbeddedCBOR` (at this
    /// item's offset) if this item is not tag 24 around a byte string, or a decoding error
    /// with offsets in the original buffer.
    public func decodeEmbedded(limits: CBORLimits? = nil) throws -> EmbeddedCBOR {
        guard let (tag, content) = tag, tag == 24, let inner = content.bytes else {
            throw CBORDecodingError(.notEmbeddedCBOR, offset: raw.startIndex)
        }
        let item = try CBORDecoder.decodeTyped(inner, options: CBORDecoder.Options(limits: limits ?? tree.limits, vocabulary: tree.vocabulary))
        return EmbeddedCBOR(tagged: raw, item: item)
    }
}

extension CBORArray {
    /// Decodes the item embedded in every element (each `#6.24(bstr .cbor X)`), in order, into one shared node table,
    /// with the vocabulary this array was decoded with and `limits`, by default the limits it was decoded with.
    ///
    /// Throws what `CBORItem.decodeEmbedded(limits:)` throws for the first element that fails.
    public func decodeEachEmbedded(limits: CBORLimits? = nil) throws -> [EmbeddedCBOR] {
        try CBORDecoder.decodeEachEmbedded(self, limits: limits ?? tree.limits)
    }
}

extension CBORItem {
    /// The limits this item was decoded with: what an item decoded from its bytes (a COSE payload, say) should keep to.
    package var decodingLimits: CBORLimits { tree.limits }
}
