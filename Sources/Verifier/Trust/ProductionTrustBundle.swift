import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// The curated production trust bundle (`Certificates/production/`), embedded in the binaries so the CLI and the
/// server trust real issuers from any working directory. `--trust` and the server's `trustStore` replace it.
/// `Trust/Embedded/` holds the folder's PEM files concatenated and its manifest, embedded by SwiftPM; a test keeps
/// them equal to the folder.
public enum ProductionTrustBundle {
    /// The bundle's anchors, scoped by its manifest; any certificate in it may anchor (see `TrustFolder`).
    ///
    /// Throws when an embedded certificate or the embedded manifest cannot be parsed.
    public static func trustStore() throws -> TrustStore {
        let anchors = try Certificate.certificates(fromPEM: String(decoding: PackageResources.ProductionBundle_pem, as: UTF8.self))
        let provenance = try TrustFolder.manifestProvenance(data: PackageResources.ProductionManifest_json,
                                                            name: "the embedded production manifest")
        return TrustStore(anchors: anchors, allowNonSelfSignedAnchors: true, provenance: provenance)
    }

    /// The trust lists the bundle took entries from, as its manifest's `lists` records them: each list's name (as
    /// the entries' sources give it) and its nextUpdate. Display only: the anchors' provenance carries no staleness.
    public static func sourceLists() -> [(source: String, nextUpdate: Date)] {
        guard let lists = JSONValue.read(PackageResources.ProductionManifest_json)?["lists"]?.array else { return [] }
        return lists.compactMap { list in
            guard let source = list["source"]?.string, let text = list["nextUpdate"]?.string,
                  let date = RFC3339.parseDateTime(text)
            else { return nil }
            return (source, date)
        }
    }
}
