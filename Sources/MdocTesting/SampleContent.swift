import CBOR
import Foundation
import Mdoc
import MdocModel

/// Realistic, fictitious document content: an mDL (ISO `org.iso.18013.5.1` plus AAMVA
/// `org.iso.18013.5.1.aamva`) and an ISO/IEC 23220 photo ID. Age elements follow the birth date at the
/// reference time, so `age_in_years` and `age_over_NN` always agree.
public enum SampleContent {
    static let birthDate = (year: 1990, month: 4, day: 12)

    /// Every element the sample holds for `docType`, or nil for a docType without sample content.
    public static func elements(for docType: String, at time: Date, country: String = "US",
                                jurisdiction: String = "US-CA") -> [DataElement]? {
        switch docType {
        case DocType.mDL: return mDL(at: time, country: country, jurisdiction: jurisdiction) + aamva()
        case DocType.photoID: return photoID(at: time, country: country)
        default: return nil
        }
    }

    static func fullDate(_ text: String) -> CBORValue { .tagged(1004, .text(text)) }

    static func age(at time: Date) -> Int {
        let today = RFC3339.format(time)
        let parts = today.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return 0 }
        let hadBirthday = (parts[1], parts[2]) >= (birthDate.month, birthDate.day)
        return parts[0] - birthDate.year - (hadBirthday ? 0 : 1)
    }

    static func ageElements(_ nameSpace: String, at time: Date) -> [DataElement] {
        let age = age(at: time)
        return [
            DataElement(nameSpace, "age_over_18", .bool(age >= 18)),
            DataElement(nameSpace, "age_over_21", .bool(age >= 21)),
            DataElement(nameSpace, "age_over_65", .bool(age >= 65)),
            DataElement(nameSpace, "age_in_years", .unsigned(UInt64(max(0, age)))),
            DataElement(nameSpace, "age_birth_year", .unsigned(UInt64(birthDate.year))),
        ]
    }

    static func mDL(at time: Date, country: String, jurisdiction: String) -> [DataElement] {
        let ns = NameSpace.mDL
        return [
            DataElement(ns, "family_name", .text("Garcia")),
            DataElement(ns, "given_name", .text("Alex Jordan")),
            DataElement(ns, "birth_date", fullDate("1990-04-12")),
            DataElement(ns, "issue_date", fullDate("2024-03-01")),
            DataElement(ns, "expiry_date", fullDate("2032-04-12")),
            DataElement(ns, "issuing_country", .text(country)),
            DataElement(ns, "issuing_authority", .text("MdocTesting Department of Motor Vehicles")),
            DataElement(ns, "issuing_jurisdiction", .text(jurisdiction)),
            DataElement(ns, "document_number", .text("D1234567")),
            DataElement(ns, "portrait", .bytes(PortraitJPEG.bytes)),
            DataElement(ns, "driving_privileges", .array([
                .map([
                    (.text("vehicle_category_code"), .text("B")),
                    (.text("issue_date"), fullDate("2024-03-01")),
                    (.text("expiry_date"), fullDate("2032-04-12")),
                ]),
                .map([
                    (.text("vehicle_category_code"), .text("A")),
                    (.text("issue_date"), fullDate("2024-03-01")),
                    (.text("expiry_date"), fullDate("2032-04-12")),
                    (.text("codes"), .array([.map([(.text("code"), .text("78"))])])),
                ]),
            ])),
            DataElement(ns, "un_distinguishing_sign", .text("USA")),
            DataElement(ns, "sex", .unsigned(2)),
            DataElement(ns, "height", .unsigned(170)),
            DataElement(ns, "eye_colour", .text("brown")),
            DataElement(ns, "resident_address", .text("2415 Fair Oaks Blvd")),
            DataElement(ns, "resident_city", .text("Sacramento")),
            DataElement(ns, "resident_state", .text("CA")),
            DataElement(ns, "resident_postal_code", .text("95825")),
            DataElement(ns, "resident_country", .text(country)),
        ] + ageElements(ns, at: time)
    }

    static func aamva() -> [DataElement] {
        let ns = NameSpace.aamva
        return [
            DataElement(ns, "DHS_compliance", .text("F")),
            DataElement(ns, "domestic_driving_privileges", .array([
                .map([
                    (.text("domestic_vehicle_class"), .map([
                        (.text("domestic_vehicle_class_code"), .text("C")),
                        (.text("domestic_vehicle_class_description"), .text("Class C")),
                        (.text("issue_date"), fullDate("2024-03-01")),
                        (.text("expiry_date"), fullDate("2032-04-12")),
                    ])),
                ]),
            ])),
            DataElement(ns, "family_name_truncation", .text("N")),
            DataElement(ns, "given_name_truncation", .text("N")),
            DataElement(ns, "organ_donor", .unsigned(1)),
            DataElement(ns, "veteran", .unsigned(0)),
            DataElement(ns, "resident_county", .text("067")),
        ]
    }

    static func photoID(at time: Date, country: String) -> [DataElement] {
        let core = NameSpace.iso23220
        let photo = NameSpace.photoID
        return [
            DataElement(core, "family_name_unicode", .text("Garcia")),
            DataElement(core, "given_name_unicode", .text("Alex Jordan")),
            DataElement(core, "family_name_latin1", .text("Garcia")),
            DataElement(core, "given_name_latin1", .text("Alex Jordan")),
            // Apple's Digital ID shape: birth_date is a map, with an approximate_mask when parts are unknown.
            DataElement(core, "birth_date", .map([(.text("birth_date"), fullDate("1990-04-12")),
                                                  (.text("approximate_mask"), .text("00000000"))])),
            DataElement(core, "portrait", .bytes(PortraitJPEG.bytes)),
            DataElement(core, "issue_date", fullDate("2025-06-01")),
            DataElement(core, "expiry_date", fullDate("2035-05-31")),
            DataElement(core, "issuing_authority_unicode", .text("MdocTesting Passport Agency")),
            DataElement(core, "issuing_country", .text(country)),
            DataElement(core, "document_number", .text("P98765432")),
            DataElement(core, "sex", .unsigned(2)),
            DataElement(core, "nationality", .text(country)),
            DataElement(core, "resident_postal_code", .text("95825")),
            DataElement(core, "resident_country", .text(country)),
        ] + ageElements(core, at: time) + [
            DataElement(photo, "travel_document_number", .text("P98765432")),
            DataElement(photo, "birth_country", .text(country)),
            DataElement(photo, "portrait_capture_date", fullDate("2025-05-20")),
        ]
    }
}
