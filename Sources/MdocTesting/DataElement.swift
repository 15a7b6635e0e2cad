import CBOR
import Foundation

/// One data element: namespace, identifier and CBOR value (e.g. `.tagged(1004, .text("1990-04-12"))` for a full-date).
public struct DataElement: Sendable, Equatable {
    /// The namespace, e.g. `org.iso.18013.5.1`.
    public var nameSpace: String
    /// The element identifier, e.g. `family_name`.
    public var identifier: String
    /// The element's value as CBOR.
    public var value: CBORValue

    /// Creates an element from its namespace, identifier and value.
    public init(_ nameSpace: String, _ identifier: String, _ value: CBORValue) {
        self.nameSpace = nameSpace
        self.identifier = identifier
        self.value = value
    }

    /// The element's `namespace:identifier` identifier.
    public var id: ElementID { ElementID(nameSpace, identifier) }
}

/// `namespace:identifier`, e.g. `org.iso.18013.5.1:family_name`.
public struct ElementID: Sendable, Hashable, CustomStringConvertible {
    /// The namespace part.
    public var nameSpace: String
    /// The element identifier part.
    public var identifier: String

    /// Creates an identifier from a namespace and an element identifier.
    public init(_ nameSpace: String, _ identifier: String) {
        self.nameSpace = nameSpace
        self.identifier = identifier
    }

    /// Parses `namespace:identifier` (split at the last colon; namespaces hold dots, not colons).
    public init?(parsing text: some StringProtocol) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.lastIndex(of: ":") else { return nil }
        let nameSpace = String(trimmed[..<colon])
        let identifier = String(trimmed[trimmed.index(after: colon)...])
        guard !nameSpace.isEmpty, !identifier.isEmpty else { return nil }
        self.init(nameSpace, identifier)
    }

    /// Parses a comma-separated list of `namespace:identifier` entries; nil if any entry does not parse.
    public static func list(_ text: String) -> [ElementID]? {
        var out: [ElementID] = []
        for part in text.split(separator: ",") {
            guard let id = ElementID(parsing: part) else { return nil }
            out.append(id)
        }
        return out
    }

    /// The identifier as `namespace:identifier` text.
    public var description: String { "\(nameSpace):\(identifier)" }
}

/// Document types the kit fills with sample content.
public enum DocType {
    /// The ISO/IEC 18013-5 mobile driving licence docType.
    public static let mDL = "org.iso.18013.5.1.mDL"
    /// Apple's Digital ID (ISO/IEC 23220 photo ID).
    public static let photoID = "org.iso.23220.photoid.1"
}

/// Namespaces of the sample content.
public enum NameSpace {
    /// The ISO/IEC 18013-5 mDL namespace.
    public static let mDL = "org.iso.18013.5.1"
    /// The AAMVA namespace of mDL elements for North American licences.
    public static let aamva = "org.iso.18013.5.1.aamva"
    /// ISO/IEC 23220-2 core elements, as used with the photo ID.
    public static let iso23220 = "org.iso.23220.1"
    /// The photo ID namespace (ISO/IEC 23220), as used by Apple's Digital ID.
    public static let photoID = "org.iso.23220.photoid.1"
    /// The Japanese national namespace of ISO/IEC 23220 (My Number Card): every `*_unicode` element is text.
    public static let iso23220Japan = "org.iso.23220.1.jp"
}
