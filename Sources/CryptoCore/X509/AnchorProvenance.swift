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
