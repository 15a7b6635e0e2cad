import CBOR

/// `IssuerSignedItemBytes = #6.24(bstr .cbor {"digestID", "random", "elementIdentifier", "elementValue"})`
/// (ISO/IEC 18013-5 §8.3.2.1.2.2). The MSO digest is taken over exactly these bytes.
public enum IssuerSignedItemBuilder {
    /// Smallest salt ISO/IEC 18013-5 §9.1.2.5 allows.
    public static let minimumSaltLength = 16

    /// Encodes one `IssuerSignedItemBytes` for `element`, with its digest ID and its salt in `random`.
    ///
    /// `extraEntries` are appended to the item map; `style` chooses how the inner map is encoded.
    public static func encode(digestID: UInt64, random: [UInt8], element: DataElement,
                              extraEntries: [(CBORValue, CBORValue)] = [], style: CBOREncodingStyle = .preferred) -> [UInt8] {
        let item: CBORValue = .map([
            (.text("digestID"), .unsigned(digestID)),
            (.text("random"), .bytes(random)),
            (.text("elementIdentifier"), .text(element.identifier)),
            (.text("elementValue"), element.value),
        ] + extraEntries)
        return CBOREncoder.encode(.tagged(24, .bytes(style.encode(item))))
    }
}
