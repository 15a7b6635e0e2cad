/// The types of the elements of the namespaces the product knows. Only what the standards and real wallets agree
/// on is typed: a table that rejects a real document is worse than none.
package enum ElementTypeTable {
    @usableFromInline static let mDL = "org.iso.18013.5.1"
    @usableFromInline static let aamva = "org.iso.18013.5.1.aamva"
    @usableFromInline static let iso23220 = "org.iso.23220.1"
    @usableFromInline static let iso23220Japan = "org.iso.23220.1.jp"

    /// The types of one namespace's elements. Inlinable, as `types(nameSpace:)`: the element check in `Mdoc` asks
    /// once per returned element.
    package struct NameSpaceTypes: Sendable {
        @usableFromInline let elements: [String: ElementType]
        /// `age_over_NN` elements are booleans.
        @usableFromInline var ageOverIsBool = false
        /// Every element named *_unicode is text.
        @usableFromInline var unicodeSuffixIsText = false

        init(elements: [String: ElementType], ageOverIsBool: Bool = false, unicodeSuffixIsText: Bool = false) {
            (self.elements, self.ageOverIsBool, self.unicodeSuffixIsText) = (elements, ageOverIsBool, unicodeSuffixIsText)
        }

        /// The type of `element`, or nil when it is not typed.
        @inlinable
        package func type(_ element: String) -> ElementType? {
            if unicodeSuffixIsText { return element.hasSuffix("_unicode") ? .text : nil }
            // The table first: most elements are in it, and no `age_over_NN` is.
            if let type = elements[element] { return type }
            return ageOverIsBool && AgeDisclosure.ageOverThreshold(element) != nil ? .bool : nil
        }
    }

    /// The types of `nameSpace`'s elements, or nil when the namespace is not typed. Looked up once per namespace: the
    /// returned elements are grouped by namespace.
    @inlinable
    package static func types(nameSpace: String) -> NameSpaceTypes? {
        switch nameSpace {
        case mDL: mDLTypes
        case aamva: aamvaTypes
        case iso23220: iso23220Types
        // Every element of the Japanese namespace named *_unicode is text (birth_date_unicode included).
        case iso23220Japan: iso23220JapanTypes
        default: nil
        }
    }

    @usableFromInline static let mDLTypes = NameSpaceTypes(elements: mDLElements, ageOverIsBool: true)
    @usableFromInline static let aamvaTypes = NameSpaceTypes(elements: aamvaElements)
    @usableFromInline static let iso23220Types = NameSpaceTypes(elements: iso23220Elements, ageOverIsBool: true)
    @usableFromInline static let iso23220JapanTypes = NameSpaceTypes(elements: [:], unicodeSuffixIsText: true)

    /// ISO/IEC 18013-5 §7.2.1, Table 5.
    static let mDLElements: [String: ElementType] = [
        "family_name": .name, "given_name": .name, "birth_date": .fullDate, "issue_date": .date, "expiry_date": .date,
        "issuing_country": .countryCode, "issuing_authority": .name, "document_number": .name, "portrait": .bytes,
        "driving_privileges": .array(of: drivingPrivilege), "un_distinguishing_sign": .text, "administrative_number": .name,
        "sex": .uint, "height": .uint, "weight": .uint, "eye_colour": .text, "hair_colour": .text, "birth_place": .name,
        "resident_address": .name, "portrait_capture_date": .tdate, "age_in_years": .uint, "age_birth_year": .uint,
        "issuing_jurisdiction": .text, "nationality": .countryCode, "resident_city": .name, "resident_state": .name,
        "resident_postal_code": .name, "resident_country": .countryCode, "family_name_national_character": .name,
        "given_name_national_character": .name, "signature_usual_mark": .bytes,
    ]

    /// `DrivingPrivilege` (§7.2.4): a vehicle category code, optional dates and codes.
    static let drivingPrivilege = ElementType.map(
        required: ["vehicle_category_code": .text],
        optional: ["issue_date": .date, "expiry_date": .date,
                   "codes": .array(of: .map(required: ["code": .text], optional: ["sign": .text, "value": .text]))])

    /// AAMVA mDL Implementation Guidelines, namespace `org.iso.18013.5.1.aamva`.
    static let aamvaElements: [String: ElementType] = [
        "domestic_driving_privileges": .array(of: .map(required: [:], optional: [:])), "name_suffix": .text,
        "organ_donor": .uint, "veteran": .uint, "family_name_truncation": .text, "given_name_truncation": .text,
        "aka_family_name": .text, "aka_given_name": .text, "aka_suffix": .text, "weight_range": .uint, "race_ethnicity": .text,
        "EDL_credential": .uint, "DHS_compliance": .text, "DHS_compliance_text": .text, "sex": .uint, "resident_county": .text,
        "hazmat_endorsement_expiration_date": .fullDate, "CDL_indicator": .uint, "DHS_temporary_lawful_status": .uint,
    ]

    /// ISO/IEC 23220-2 core elements (`org.iso.23220.1`), in the shapes Apple's Digital ID sends: `birth_date` is a map
    /// `{"birth_date": full-date, ? "approximate_mask": tstr}` (a bare full-date is accepted too) and `sex` an ISO/IEC 5218
    /// integer.
    static let iso23220Elements: [String: ElementType] = [
        "family_name_unicode": .text, "given_name_unicode": .text, "family_name_latin1": .text, "given_name_latin1": .text,
        "birth_date": .oneOf([.fullDate, .map(required: ["birth_date": .fullDate], optional: ["approximate_mask": .text])]),
        "portrait": .bytes, "issue_date": .date, "expiry_date": .date, "issuing_authority_unicode": .text,
        "issuing_authority_latin1": .text, "issuing_country": .countryCode, "issuing_subdivision": .text, "document_number": .text,
        "sex": .uint, "nationality": .countryCode, "resident_address_unicode": .text, "resident_city_unicode": .text,
        "resident_city_latin1": .text, "resident_postal_code": .text, "resident_country": .countryCode,
        "age_in_years": .uint, "age_birth_year": .uint, "portrait_capture_date": .date,
    ]
}
