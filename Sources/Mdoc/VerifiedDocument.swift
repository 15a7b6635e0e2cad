import Foundation

/// A document whose every check passed. Built only after the whole response verified.
public struct VerifiedDocument: Sendable {
    public struct Element: Sendable {
        public let value: ElementValue
        /// The intent to retain the caller declared for this element (nil when no request was given).
        public let intentToRetain: Bool?
        /// True for an element from DeviceSigned (authorized by keyAuthorizations) rather than IssuerSigned.
        public let deviceSigned: Bool
    }

    public struct Issuer: Sendable {
        public let documentSigner: String
        public let root: String?
        public let documentSignerValidFrom: Date
        public let documentSignerValidUntil: Date
    }

    public struct Validity: Sendable {
        public let signed: Date
        public let validFrom: Date
        public let validUntil: Date
        public let expectedUpdate: Date?
    }

    public let docType: String
    public let issuer: Issuer
    public let validity: Validity
    /// namespace → element identifier → element.
    public let elements: [String: [String: Element]]
    /// Requested elements the wallet did not return ("namespace/element"), sorted.
    public let missing: [String]

    public func value(_ nameSpace: String, _ element: String) -> ElementValue? {
        elements[nameSpace]?[element]?.value
    }
}
