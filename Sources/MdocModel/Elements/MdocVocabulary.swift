import CBOR

extension CBORDecoder.Options {
    /// How mdoc CBOR is decoded: with `limits` and the mdoc text vocabulary, so that model code reading `.text` gets
    /// the stored String for every known docType, namespace, element identifier and privilege key. Items embedded in
    /// what is decoded this way (IssuerSignedItems, DeviceNameSpaces) inherit the vocabulary; the one place that
    /// decodes received mdoc bytes afresh (the MSO, from the issuerAuth payload) and the pipeline's input decoding
    /// use these options.
    package static func mdoc(limits: CBORLimits = .default) -> Self {
        Self(limits: limits, vocabulary: MdocVocabulary.texts)
    }
}

/// The texts every mdoc response repeats: the docType, the namespaces, the element identifiers `ElementTypeTable`
/// types and the keys of the driving-privilege maps.
enum MdocVocabulary {
    static let texts = TextVocabulary(
        ["org.iso.18013.5.1.mDL", ElementTypeTable.mDL, ElementTypeTable.aamva, ElementTypeTable.iso23220,
         ElementTypeTable.iso23220Japan]
            + ElementTypeTable.mDLElements.keys + ElementTypeTable.aamvaElements.keys
            + ElementTypeTable.iso23220Elements.keys + domesticPrivilegeKeys
            + ["vehicle_category_code"])

    /// The keys of AAMVA's `domestic_driving_privileges` entries (AAMVA mDL Implementation Guidelines, namespace
    /// `org.iso.18013.5.1.aamva`).
    static let domesticPrivilegeKeys = [
        "domestic_vehicle_class", "domestic_vehicle_class_code", "domestic_vehicle_class_description",
        "domestic_vehicle_restrictions", "domestic_vehicle_restriction_code", "domestic_vehicle_restriction_description",
        "domestic_vehicle_endorsements", "domestic_vehicle_endorsement_code", "domestic_vehicle_endorsement_description",
    ]
}
