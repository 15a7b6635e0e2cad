import CryptoCore

/// The X.509 key identifiers a request may list so the wallet offers only documents whose document signer chain
/// it accepts: `PKIdentityDocumentDescriptor.issuerIdentifiers` (iOS 27) and `issuerIdentifiers` of the
/// ItemsRequest's `requestInfo` (ISO/IEC 18013-5 second edition, DocRequestInfo). Apple defines an identifier as an
/// authority key identifier from the document signer certificate chain and bounds the list at 1,000 identifiers of
/// at most 64 bytes. This only filters on the wallet side; chain validation still decides.
public enum IssuerIdentifiers {
    /// The most identifiers a list may hold (Apple's bound).
    public static let maxCount = 1000
    /// The longest identifier, in bytes (Apple's bound).
    public static let maxLength = 64

    /// The identifiers of every anchor that may anchor `docType`, deduplicated and sorted: a CA anchor's
    /// subjectKeyIdentifier (what the certificates it issues carry as authorityKeyIdentifier), a pinned document
    /// signer's own authorityKeyIdentifier. Nil when the store cannot be described this way (an anchor without the
    /// identifier, more than 1,000, one over 64 bytes) or names no anchor for the docType: a list that left out an
    /// anchor would hide documents the verifier accepts, so the request then carries none (the wallet offers any).
    public static func offer(for docType: String, in store: TrustStore) -> [[UInt8]]? {
        var identifiers = Set<[UInt8]>()
        for anchor in store.anchors {
            if let scope = store.provenance[anchor.sha256Fingerprint]?.docTypes, !scope.contains(docType) { continue }
            let isCA = anchor.basicConstraints?.isCA ?? false
            guard let identifier = isCA ? anchor.subjectKeyIdentifier : anchor.authorityKeyIdentifier,
                  !identifier.isEmpty, identifier.count <= maxLength
            else { return nil }
            identifiers.insert(identifier)
        }
        guard !identifiers.isEmpty, identifiers.count <= maxCount else { return nil }
        return identifiers.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// `offer(for:in:)` for each docType, leaving out those it has no list for.
    public static func offer(for docTypes: [String], in store: TrustStore) -> [String: [[UInt8]]] {
        var offers: [String: [[UInt8]]] = [:]
        for docType in docTypes where offers[docType] == nil {
            if let identifiers = offer(for: docType, in: store) { offers[docType] = identifiers }
        }
        return offers
    }
}
