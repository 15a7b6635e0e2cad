import Foundation

/// A document whose every check passed. Built only after the whole response verified.
public struct VerifiedDocument: Sendable {
    /// One disclosed element of a verified document: its value and where it came from.
    public struct Element: Sendable {
        /// The element's value.
        public let value: ElementValue
        /// The intent to retain the caller declared for this element (nil when no request was given).
        public let intentToRetain: Bool?
        /// True for an element from DeviceSigned: asserted by the holder's device (authorized by the MSO's
        /// keyAuthorizations), not signed by the issuer.
        public let deviceSigned: Bool
        /// Set when the value is not an element the wallet returned but the answer to a requested question
        /// computed from one: a requested `age_over_NN` answered from `age_in_years` names `age_in_years` here.
        public let derivedFrom: String?

        package init(value: ElementValue, intentToRetain: Bool?, deviceSigned: Bool, derivedFrom: String?) {
            self.value = value
            self.intentToRetain = intentToRetain
            self.deviceSigned = deviceSigned
            self.derivedFrom = derivedFrom
        }
    }

    /// Who vouches for the document: its document signer certificate and the trust anchor the chain reached.
    public struct Issuer: Sendable {
        /// The subject distinguished name of the document signer certificate (the first certificate of `x5chain`).
        public let documentSigner: String
        /// The subject of the trusted certificate the chain ended at (the same as `anchor?.subject`).
        public let root: String?
        /// The start of the document signer certificate's validity (notBefore).
        public let documentSignerValidFrom: Date
        /// The end of the document signer certificate's validity (notAfter).
        public let documentSignerValidUntil: Date
        /// The trust anchor the chain reached and what the trust configuration says about it.
        public let anchor: Anchor?

        package init(documentSigner: String, root: String?, documentSignerValidFrom: Date, documentSignerValidUntil: Date,
                     anchor: Anchor?) {
            self.documentSigner = documentSigner
            self.root = root
            self.documentSignerValidFrom = documentSignerValidFrom
            self.documentSignerValidUntil = documentSignerValidUntil
            self.anchor = anchor
        }
    }

    /// The trust anchor a document signer chained to.
    public struct Anchor: Sendable {
        /// The subject distinguished name of the anchor certificate.
        public let subject: String
        /// The SHA-256 fingerprint of the anchor certificate's DER encoding.
        public let certificateSHA256: [UInt8]
        /// False for a pinned intermediate or document signer.
        public let selfSigned: Bool
        /// The trust list or bundle it came from ("VICAL AAMVA issue 89782 of …"); nil for a plain anchor file.
        public let source: String?
        /// That list's nextUpdate; nil when there is no list or it gives none.
        public let listNextUpdate: Date?
        /// True when `listNextUpdate` had passed at the verification time (the list is stale).
        public let listStale: Bool

        package init(subject: String, certificateSHA256: [UInt8], selfSigned: Bool, source: String?, listNextUpdate: Date?,
                     listStale: Bool) {
            self.subject = subject
            self.certificateSHA256 = certificateSHA256
            self.selfSigned = selfSigned
            self.source = source
            self.listNextUpdate = listNextUpdate
            self.listStale = listStale
        }
    }

    /// The MSO's validityInfo, as written (to the nanosecond); the `Date`s are for comparisons.
    public struct Validity: Sendable {
        /// When the issuer signed the MSO (`signed`), as written.
        public let signedAt: RFC3339.Timestamp
        /// The start of the MSO's validity (`validFrom`), as written.
        public let validFromAt: RFC3339.Timestamp
        /// The end of the MSO's validity (`validUntil`), as written.
        public let validUntilAt: RFC3339.Timestamp
        /// When the issuer expects to update the MSO (`expectedUpdate`), as written; nil when the MSO does not say.
        public let expectedUpdateAt: RFC3339.Timestamp?

        /// `signedAt` as a `Date`.
        public var signed: Date { signedAt.date }
        /// `validFromAt` as a `Date`.
        public var validFrom: Date { validFromAt.date }
        /// `validUntilAt` as a `Date`.
        public var validUntil: Date { validUntilAt.date }

        package init(signedAt: RFC3339.Timestamp, validFromAt: RFC3339.Timestamp, validUntilAt: RFC3339.Timestamp,
                     expectedUpdateAt: RFC3339.Timestamp?) {
            self.signedAt = signedAt
            self.validFromAt = validFromAt
            self.validUntilAt = validUntilAt
            self.expectedUpdateAt = expectedUpdateAt
        }
    }

    /// The document type, e.g. `org.iso.18013.5.1.mDL`.
    public let docType: String
    /// The document signer and the trust anchor that vouch for the document.
    public let issuer: Issuer
    /// The MSO's validity information.
    public let validity: Validity
    /// The disclosed elements: namespace → element identifier → element.
    public let elements: [String: [String: Element]]
    /// Requested elements the wallet did not return ("namespace/element"), sorted.
    public let missing: [String]

    package init(docType: String, issuer: Issuer, validity: Validity, elements: [String: [String: Element]], missing: [String]) {
        self.docType = docType
        self.issuer = issuer
        self.validity = validity
        self.elements = elements
        self.missing = missing
    }

    /// The value of an element, or nil when the document holds no such element.
    ///
    /// - Parameters:
    ///   - nameSpace: The namespace, e.g. `org.iso.18013.5.1`.
    ///   - element: The element identifier, e.g. `family_name`.
    public func value(_ nameSpace: String, _ element: String) -> ElementValue? {
        elements[nameSpace]?[element]?.value
    }

    /// Device-signed elements: namespace → identifiers, sorted (issuer-signed is the default).
    public var deviceSigned: [String: [String]] {
        elements.compactMapValues { entries in
            let ids = entries.filter(\.value.deviceSigned).keys.sorted()
            return ids.isEmpty ? nil : ids
        }
    }

    /// Derived answers: namespace → element → the element it was derived from.
    public var derived: [String: [String: String]] {
        elements.compactMapValues { entries in
            let derived = entries.compactMapValues(\.derivedFrom)
            return derived.isEmpty ? nil : derived
        }
    }
}
