import Foundation

/// A document whose every check passed. Built only after the whole response verified.
public struct VerifiedDocument: Sendable {
    public struct Element: Sendable {
        public let value: ElementValue
        /// The intent to retain the caller declared for this element (nil when no request was given).
        public let intentToRetain: Bool?
        /// True for an element from DeviceSigned: asserted by the holder's device (authorized by the MSO's
        /// keyAuthorizations), not signed by the issuer.
        public let deviceSigned: Bool
        /// Set when the value is not an element the wallet returned but the answer to a requested question
        /// computed from one: a requested `age_over_NN` answered from `age_in_years` names `age_in_years` here.
        public let derivedFrom: String?
    }

    public struct Issuer: Sendable {
        public let documentSigner: String
        /// The subject of the trusted certificate the chain ended at (the same as `anchor?.subject`).
        public let root: String?
        public let documentSignerValidFrom: Date
        public let documentSignerValidUntil: Date
        /// The trust anchor the chain reached and what the trust configuration says about it.
        public let anchor: Anchor?
    }

    /// The trust anchor a document signer chained to.
    public struct Anchor: Sendable {
        public let subject: String
        public let certificateSHA256: [UInt8]
        /// False for a pinned intermediate or document signer.
        public let selfSigned: Bool
        /// The trust list or bundle it came from ("VICAL AAMVA issue 89782 of …"); nil for a plain anchor file.
        public let source: String?
        /// That list's nextUpdate, and whether it had passed at the verification time.
        public let listNextUpdate: Date?
        public let listStale: Bool
    }

    /// The MSO's validityInfo, as written (to the nanosecond); the `Date`s are for comparisons.
    public struct Validity: Sendable {
        public let signedAt: RFC3339.Timestamp
        public let validFromAt: RFC3339.Timestamp
        public let validUntilAt: RFC3339.Timestamp
        public let expectedUpdateAt: RFC3339.Timestamp?

        public var signed: Date { signedAt.date }
        public var validFrom: Date { validFromAt.date }
        public var validUntil: Date { validUntilAt.date }
        public var expectedUpdate: Date? { expectedUpdateAt?.date }

        package init(signedAt: RFC3339.Timestamp, validFromAt: RFC3339.Timestamp, validUntilAt: RFC3339.Timestamp,
                     expectedUpdateAt: RFC3339.Timestamp?) {
            self.signedAt = signedAt
            self.validFromAt = validFromAt
            self.validUntilAt = validUntilAt
            self.expectedUpdateAt = expectedUpdateAt
        }
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
