#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the trust configuration says about an anchor beyond its certificate.
///
/// It records the docTypes the anchor may anchor and the trust list it came from. A trust folder's manifest.json
/// records it, and so does a VICAL loaded by the server.
public struct AnchorProvenance: Sendable, Hashable {
    /// The docTypes the anchor may anchor (a VICAL entry's list); nil anchors any docType.
    public var docTypes: [String]?
    /// Where the anchor came from, for reports ("VICAL AAMVA issue 89782 of 2025-08-05T21:00:00Z").
    public var source: String?
    /// The trust list's nextUpdate: once it has passed, the listing that vouches for the anchor is stale.
    public var listNextUpdate: Date?
    /// Whether the anchor stops anchoring once `listNextUpdate` has passed, under any profile (verify-server's
    /// `vicalStalePolicy: refuse`). Without it a stale list is a warning, and a failure under the strict profile only.
    public var refusedWhenStale: Bool

    /// Creates a provenance record; every field defaults to nil or false (any docType, no source, no list expiry).
    public init(docTypes: [String]? = nil, source: String? = nil, listNextUpdate: Date? = nil, refusedWhenStale: Bool = false) {
        self.docTypes = docTypes
        self.source = source
        self.listNextUpdate = listNextUpdate
        self.refusedWhenStale = refusedWhenStale
    }
}

extension AnchorProvenance {
    /// The record of an anchor that two sources vouch for (the same certificate in two lists, or in a list and given
    /// directly), so that the order in which sources load does not matter.
    ///
    /// Staleness: the listing that vouches longest decides, and is named as the source. A record without
    /// `listNextUpdate` (a certificate trusted directly) never turns stale; of two lists the later nextUpdate wins, and
    /// past it the anchor is refused only when both records refuse. Scope: any docType only if both allow any, else the
    /// docTypes both allow, so a scope never widens. The loaders refuse two scopes for one public key anyway
    /// (`TrustFolder.scopeConflict`): either anchor could end a path.
    public func merged(with other: AnchorProvenance) -> AnchorProvenance {
        let scope: [String]? = switch (docTypes, other.docTypes) {
        case (nil, nil): nil
        case (let mine?, nil): mine
        case (nil, let theirs?): theirs
        case let (mine?, theirs?): mine.filter { theirs.contains($0) }
        }
        switch (listNextUpdate, other.listNextUpdate) {
        case (nil, _):
            return AnchorProvenance(docTypes: scope, source: source)
        case (_, nil):
            return AnchorProvenance(docTypes: scope, source: other.source)
        case let (mine?, theirs?):
            let longer = theirs > mine ? other : self
            return AnchorProvenance(docTypes: scope, source: longer.source, listNextUpdate: longer.listNextUpdate,
                                    refusedWhenStale: refusedWhenStale && other.refusedWhenStale)
        }
    }

    /// Records `record` for the anchor with SHA-256 `fingerprint` in `provenance`, merged with what is recorded already.
    public static func record(_ record: AnchorProvenance, for fingerprint: [UInt8], in provenance: inout [[UInt8]: AnchorProvenance]) {
        provenance[fingerprint] = provenance[fingerprint].map { $0.merged(with: record) } ?? record
    }
}
