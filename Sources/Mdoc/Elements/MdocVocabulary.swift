import CBOR

/// The texts every mdoc response repeats: the docType, the namespaces, the element identifiers `ElementTypeTable`
/// types and the keys of the driving-privilege maps. Read through this vocabulary, a response costs no String
/// allocation for them (an Apple sample has about thirty).
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
