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
        for anchor in store.anchors where store.mayAnchor(anchor, docType) {
            guard let identifier = identifier(of: anchor) else { return nil }
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

    /// The identifier a list names `anchor` by: a CA's subjectKeyIdentifier (the authorityKeyIdentifier of what it
    /// issues), a pinned document signer's own authorityKeyIdentifier. Nil when it has none, or one over 64 bytes.
    public static func identifier(of anchor: Certificate) -> [UInt8]? {
        let isCA = anchor.basicConstraints?.isCA ?? false
        guard let identifier = isCA ? anchor.subjectKeyIdentifier : anchor.authorityKeyIdentifier,
              !identifier.isEmpty, identifier.count <= maxLength
        else { return nil }
        return identifier
    }

    /// What a request with an issuer allow-list (`RequestPolicy.allowedIssuers`) offers per requested docType: the
    /// allow-list narrowed to the identifiers of the anchors that may anchor that docType. Nil when the policy names
    /// no allow-list (the caller offers the whole store, or nothing).
    ///
    /// - Throws: `input.malformed` when an entry is the identifier of no anchor that may anchor a requested docType (a
    ///   list the store cannot honour, e.g. naming an anchor the operator removed), or when a requested docType is
    ///   left with no allowed issuer: an empty list would tell the wallet that any issuer will do.
    public static func narrowed(_ policy: RequestPolicy, in store: TrustStore) throws(VerificationError) -> [String: [[UInt8]]]? {
        guard !policy.allowedIssuers.isEmpty else { return nil }
        let docTypes = policy.documents.map(\.docType)
        var anchored: [String: Set<[UInt8]>] = [:]
        for anchor in store.anchors {
            guard let identifier = identifier(of: anchor) else { continue }
            for docType in docTypes where store.mayAnchor(anchor, docType) { anchored[docType, default: []].insert(identifier) }
        }
        for (index, entry) in policy.allowedIssuers.enumerated() where !anchored.values.contains(where: { $0.contains(entry) }) {
            throw VerificationError(.inputMalformed, "allowedIssuers[\(index)] (\(Base64URL.encode(entry))) is the key identifier of no trust "
                                    + "anchor that may anchor the requested docTypes; list only identifiers of anchors in the trust store")
        }
        var offers: [String: [[UInt8]]] = [:]
        for docType in docTypes {
            let allowed = policy.allowedIssuers.filter { anchored[docType]?.contains($0) ?? false }
            guard !allowed.isEmpty else {
                throw VerificationError(.inputMalformed, "no entry of allowedIssuers may anchor docType \(InputQuote.short(docType)); add "
                                        + "an issuer of that docType to the list, or leave the docType out of the request")
            }
            offers[docType] = allowed.sorted { $0.lexicographicallyPrecedes($1) }
        }
        return offers
    }

    /// Reads one allow-list entry as the request JSON carries it: base64url (what requests send; padding optional) or
    /// hex with a colon between bytes (`3A:F2:…`, as `openssl x509 -text` prints a key identifier). Nil otherwise;
    /// plain hex is refused because it also reads as base64url.
    public static func parse(_ text: String) -> [UInt8]? {
        guard text.contains(":") else { return Base64URL.decodeStrict(text) }
        var bytes: [UInt8] = []
        for pair in text.split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.utf8.count == 2, let byte = Hex.decode(pair)?.first else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

extension TrustStore {
    /// Whether `anchor` may anchor `docType`: no scope, or a scope that names it (a trust-list entry's docTypes).
    func mayAnchor(_ anchor: Certificate, _ docType: String) -> Bool {
        provenance[anchor.sha256Fingerprint]?.docTypes.map { $0.contains(docType) } ?? true
    }
}
