import CryptoCore
import Foundation
import Mdoc
import Verifier

/// The server's trust: the configured anchors (or the embedded production bundle) plus the IACAs of every
/// configured VICAL, each VICAL verified against its pinned root at start.
struct TrustLoader {
    /// What `/readyz` says about one loaded VICAL.
    struct LoadedVICAL: Sendable {
        let file: String
        let provider: String
        let issueID: UInt64?
        let date: RFC3339.Timestamp
        let nextUpdate: RFC3339.Timestamp?
        let stale: Bool
        let entries: Int
        /// The source accepts an older list than the highest issue accepted before.
        let allowRollback: Bool
    }

    /// The trust store, or nil with the reasons in `problems`.
    static func load(_ configuration: ServerConfiguration, at time: Date, problems: inout [String])
        -> (store: TrustStore, vicals: [LoadedVICAL])? {
        let paths = configuration.trustStorePaths
        let base: TrustStore
        do {
            base = paths.isEmpty ? try ProductionTrustBundle.trustStore() : try TrustFolder.trustStore(paths: paths)
        } catch {
            problems.append("trust store: \(error)")
            return nil
        }
        var anchors = base.anchors
        var provenance = base.provenance
        var scoped = base.anchors.map {
            TrustFolder.ScopedAnchor(certificate: $0, docTypes: base.provenance[$0.sha256Fingerprint]?.docTypes, origin: "the trust store")
        }
        var loaded: [LoadedVICAL] = []
        for source in configuration.vicals {
            guard let verified = vical(source, at: time, profile: configuration.profile, problems: &problems) else { continue }
            for entry in verified.vical.entries {
                anchors.append(entry.certificate)
                provenance[entry.certificate.sha256Fingerprint] = verified.provenance(of: entry)
                scoped.append(TrustFolder.ScopedAnchor(certificate: entry.certificate, docTypes: entry.docTypes, origin: "vical \(source.file)"))
            }
            let stale: Bool
            if case .stale = verified.freshness { stale = true } else { stale = false }
            loaded.append(LoadedVICAL(file: source.file, provider: verified.vical.provider, issueID: verified.vical.issueID,
                                      date: verified.vical.date, nextUpdate: verified.vical.nextUpdate, stale: stale,
                                      entries: verified.vical.entries.count, allowRollback: source.allowRollback))
        }
        if let conflict = TrustFolder.scopeConflict(scoped) { problems.append("trust store: \(conflict)") }
        if anchors.isEmpty {
            problems.append("trust store \(paths.isEmpty ? "(the embedded production bundle)" : paths.joined(separator: ", ")) holds no certificate")
        }
        return (TrustStore(anchors: anchors, allowNonSelfSignedAnchors: true, provenance: provenance), loaded)
    }

    private static func vical(_ source: VICALSource, at time: Date, profile: CertificateProfile,
                              problems: inout [String]) -> VICALVerification? {
        guard let data = FileManager.default.contents(atPath: source.file) else {
            problems.append("vical \(source.file): cannot read the file")
            return nil
        }
        let roots: [Certificate]
        do {
            roots = try TrustStore.load(paths: [source.root]).anchors
        } catch {
            problems.append("vical \(source.file): root \(source.root): \(error)")
            return nil
        }
        do {
            return try VICALVerification([UInt8](data), roots: roots, at: time, profile: profile)
        } catch {
            problems.append("vical \(source.file): \(error.code.rawValue): \(error.message)")
            return nil
        }
    }
}
