import CryptoCore
import Foundation
import Mdoc
import Verifier

/// The server's trust: the configured anchors (or the embedded production bundle) plus the IACAs of every
/// configured VICAL, each VICAL verified against its pinned root at start. A VICAL with a `url` is read from its last
/// good copy in `vicalCacheDirectory` (`VICALRefresher` downloads it).
struct TrustLoader {
    /// What `/readyz` says about one loaded VICAL.
    struct LoadedVICAL: Sendable {
        /// The configured source.
        let source: VICALSource
        let provider: String
        let issueID: UInt64?
        let date: RFC3339.Timestamp
        let nextUpdate: RFC3339.Timestamp?
        /// Past its nextUpdate when loaded.
        let stale: Bool
        let entries: Int
        /// Its IACAs are in the trust store: false when it was stale and `vicalStalePolicy` is `refuse`.
        let anchoring: Bool

        /// The file, or the URL without user info or query.
        var file: String { source.name }
        /// The source accepts an older list than the highest issue accepted before.
        var allowRollback: Bool { source.allowRollback }

        /// Whether the list's nextUpdate has passed at `time`.
        func isStale(at time: Date) -> Bool { nextUpdate.map { $0.date < time } ?? false }
    }

    /// A `url` source without a usable copy yet: none was downloaded, or the copy no longer verifies.
    struct Pending: Sendable {
        let source: VICALSource
        let reason: String
    }

    /// The trust store, or nil with the reasons in `problems`; `pending` lists the `url` sources without a usable copy.
    static func load(_ configuration: ServerConfiguration, at time: Date, problems: inout [String])
        -> (store: TrustStore, vicals: [LoadedVICAL], pending: [Pending], lotes: [LoadedLoTE])? {
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
        var pending: [Pending] = []
        for source in configuration.vicals {
            let verified: VICALVerification
            switch vical(source, configuration: configuration, at: time) {
            case .success(let result): verified = result
            case .failure(let failure):
                // A url source without a usable copy waits for its download; a file's problem refuses the load.
                if failure.aboutCopy { pending.append(Pending(source: source, reason: failure.message)) } else { problems.append(failure.message) }
                continue
            }
            let stale: Bool
            if case .stale = verified.freshness { stale = true } else { stale = false }
            let anchoring = !(stale && configuration.vicalStalePolicy == .refuse)
            if anchoring {
                for entry in verified.vical.entries {
                    anchors.append(entry.certificate)
                    provenance[entry.certificate.sha256Fingerprint] = verified.provenance(of: entry)
                    scoped.append(TrustFolder.ScopedAnchor(certificate: entry.certificate, docTypes: entry.docTypes, origin: "vical \(source.name)"))
                }
            }
            loaded.append(LoadedVICAL(source: source, provider: verified.vical.provider, issueID: verified.vical.issueID,
                                      date: verified.vical.date, nextUpdate: verified.vical.nextUpdate, stale: stale,
                                      entries: verified.vical.entries.count, anchoring: anchoring))
        }
        let lotes = loadLoTEs(configuration, at: time, anchors: &anchors, provenance: &provenance, scoped: &scoped, problems: &problems)
        if let conflict = TrustFolder.scopeConflict(scoped) { problems.append("trust store: \(conflict)") }
        // Without anchors yet, a pending download may still bring some: the start decides after it.
        if anchors.isEmpty && pending.isEmpty {
            problems.append("trust store \(paths.isEmpty ? "(the embedded production bundle)" : paths.joined(separator: ", ")) holds no certificate"
                            + (loaded.contains { !$0.anchoring } ? " in use (a stale VICAL is refused: vicalStalePolicy refuse)" : ""))
        }
        return (TrustStore(anchors: anchors, allowNonSelfSignedAnchors: true, provenance: provenance), loaded, pending, lotes)
    }

    struct Failure: Error {
        let message: String
        /// About a `url` source's downloaded copy (missing or not verifying), not about the configuration.
        var aboutCopy = false
    }

    /// The pinned roots of `source`.
    static func roots(_ source: VICALSource) -> Result<[Certificate], Failure> {
        do {
            return .success(try TrustStore.load(paths: [source.root]).anchors)
        } catch {
            return .failure(Failure(message: "vical \(source.name): root \(source.root): \(error)"))
        }
    }

    private static func vical(_ source: VICALSource, configuration: ServerConfiguration, at time: Date) -> Result<VICALVerification, Failure> {
        let path = configuration.vicalCopyPath(source) ?? source.file
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Failure(message: source.url == nil ? "vical \(source.name): cannot read the file"
                                                               : "vical \(source.name): no copy downloaded yet (\(path))",
                                    aboutCopy: source.url != nil))
        }
        let roots: [Certificate]
        switch Self.roots(source) {
        case .success(let found): roots = found
        case .failure(let failure): return .failure(failure)
        }
        do {
            return .success(try VICALVerification([UInt8](data), roots: roots, at: time, profile: configuration.profile))
        } catch {
            let copy = source.url == nil ? "" : "the copy in \(configuration.vicalCacheDirectory): "
            return .failure(Failure(message: "vical \(source.name): \(copy)\(error.code.rawValue): \(error.message)", aboutCopy: source.url != nil))
        }
    }
}
