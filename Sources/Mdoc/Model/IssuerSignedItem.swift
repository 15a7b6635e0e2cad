import CBOR

/// `IssuerSignedItemBytes = #6.24(bstr .cbor IssuerSignedItem)` (ISO/IEC 18013-5 §8.3.2.1.2.2).
package struct IssuerSignedItem: Sendable {
    package let digestID: UInt64
    package let random: ArraySlice<UInt8>
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
        for element in embedded { items.append(try IssuerSignedItem(element)) }
        return items
    }

    private static func notEmbedded(_ error: any Error) -> VerificationError {
        VerificationError(.responseMalformed, "IssuerSignedItemBytes is not #6.24(bstr .cbor IssuerSignedItem): \(error)")
    }

    private init(_ embedded: EmbeddedCBOR) throws(VerificationError) {
        let inner = embedded.item
        guard inner.isMap,
              let digestID = inner["digestID"]?.uint,
              let random = inner["random"]?.bytes,
              let identifier = inner["elementIdentifier"]?.text,
              let value = inner["elementValue"]
        else {
            throw VerificationError(.responseMalformed, "IssuerSignedItem lacks digestID, random, elementIdentifier or elementValue")
        }
        self.digestID = digestID
        self.random = random
        self.elementIdentifier = identifier
        self.elementValue = value
        self.taggedBytes = embedded.tagged
    }
}
