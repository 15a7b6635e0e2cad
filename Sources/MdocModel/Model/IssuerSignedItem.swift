import CBOR

/// `IssuerSignedItemBytes = #6.24(bstr .cbor IssuerSignedItem)` (ISO/IEC 18013-5 §8.3.2.1.2.2).
///
/// `random` must be a byte string, as the CDDL says, but is not kept: only the digest over the whole item uses it.
package struct IssuerSignedItem: Sendable {
    package let digestID: UInt64
    package let elementIdentifier: String
    package let elementValue: CBORItem
    /// The whole tag-24 item exactly as received: the value digest is computed over these bytes (§9.1.2.5).
    package let taggedBytes: ArraySlice<UInt8>

    /// The items of one namespace, decoded into one shared table.
    package static func all(_ array: CBORArray) throws(VerificationError) -> [IssuerSignedItem] {
        let embedded: [EmbeddedCBOR]
        do {
            embedded = try array.decodeEachEmbedded()
        } catch {
            throw notEmbedded(error)
        }
        var items: [IssuerSignedItem] = []
        items.reserveCapacity(embedded.count)
        for index in embedded.indices { items.append(try IssuerSignedItem(embedded[index].item, tagged: embedded[index].tagged)) }
        return items
    }

    private static func notEmbedded(_ error: any Error) -> VerificationError {
        VerificationError(.responseMalformed, "IssuerSignedItemBytes is not #6.24(bstr .cbor IssuerSignedItem): \(error)")
    }

    private static let keys: [StaticString] = ["digestID", "random", "elementIdentifier", "elementValue"]

    /// One pass over the map's entries; keys other than the four are ignored, as CBOR maps of a known shape allow.
    private init(_ inner: CBORItem, tagged: ArraySlice<UInt8>) throws(VerificationError) {
        var digestID: UInt64?
        var hasRandom = false
        var identifier: String?
        var value: CBORItem?
        if let map = inner.map {
            // Keys and values are read in place; an item is made only of the element's value.
            for index in map.indices {
                switch map.keyIndex(index, among: Self.keys) {
                case 0: digestID = map.unsignedValue(index)
                case 1: hasRandom = map.valueByteCount(index) != nil
                case 2: identifier = map.textValue(index)
                case 3: value = map.value(index)
                default: break
                }
            }
        }
        guard let digestID, hasRandom, let identifier, let value else {
            throw VerificationError(.responseMalformed, "IssuerSignedItem lacks digestID, random, elementIdentifier or elementValue")
        }
        self.digestID = digestID
        self.elementIdentifier = identifier
        self.elementValue = value
        self.taggedBytes = tagged
    }
}
