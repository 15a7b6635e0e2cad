import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// The server's trust: the configured anchors (or the embedded production bundle) plus the IACAs of every
/// configured VICAL and LoTE, each list verified against its pinned root at start. A list with a `url` is read from its
/// last good copy in `vicalCacheDirectory` (`TrustListRefresher` downloads it).
struct TrustLoader {
    /// A loaded VICAL or LoTE as `/readyz` and `/metrics` judge it: stale after its nextUpdate, and trusted while its
    /// anchors are in the store and, under `vicalStalePolicy: refuse`, it is not stale (the chain check refuses them at
    /// use from their nextUpdate on).
    protocol LoadedList {
        /// The list's nextUpdate, if it has one.
        var listNextUpdate: Date? { get }
        /// Its anchors are in the trust store: false when it was stale at load and the policy is `refuse`.
        var anchoring: Bool { get }
    }

    /// What `/readyz` says about one loaded VICAL.
    struct LoadedVICAL: Sendable, LoadedList {
        /// The configured source.
        let source: VICALSource
        let provider: String
        let issueID: UInt64?
        let date: RFC3339.Timestamp
        let nextUpdate: RFC3339.Timestamp?
        let entries: Int
        let anchoring: Bool

        var listNextUpdate: Date? { nextUpdate?.date }
    }

    /// A `url` source without a usable copy yet: none was downloaded, or the copy no longer verifies.
    struct Pending: Sendable {
        let list: TrustList
        /// The whole message, for the log and the reload error.
        let reason: String
        /// `no_copy`, or the error code of a copy that does not verify: what `/readyz` shows, without file paths.
        let category: String
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
        var gathered = Gathered(anchors: base.anchors, provenance: base.provenance, scoped: base.anchors.map {
            TrustFolder.ScopedAnchor(certificate: $0, docTypes: base.provenance[$0.sha256Fingerprint]?.docTypes, origin: "the trust store")
        })
        // Every anchor has a record, a direct one (no list) included, so that a list naming it too merges into it.
        for anchor in base.anchors where gathered.provenance[anchor.sha256Fingerprint] == nil { gathered.provenance[anchor.sha256Fingerprint] = AnchorProvenance() }
        // Under refuse a trust folder's anchors imported from a VICAL or LoTE (their manifest records the list's
        // nextUpdate) are refused at use once that list is stale, as a configured list's are.
        if configuration.vicalStalePolicy == .refuse {
            for (fingerprint, recorded) in gathered.provenance where recorded.listNextUpdate != nil { gathered.provenance[fingerprint]?.refusedWhenStale = true }
        }
        var loaded: [LoadedVICAL] = []
        var pending: [Pending] = []
        for source in configuration.vicals {
            guard case .vical(let verified)? = Self.verified(.vical(source), configuration: configuration, at: time, pending: &pending,
                                                             problems: &problems) else { continue }
            let stale: Bool
            if case .stale = verified.freshness { stale = true } else { stale = false }
            let anchoring = !(stale && configuration.vicalStalePolicy == .refuse)
            if anchoring {
                for entry in verified.vical.entries {
                    gathered.adopt(entry.certificate, docTypes: entry.docTypes, recorded: verified.provenance(of: entry),
                                   origin: "vical \(source.name)", policy: configuration.vicalStalePolicy)
                }
            }
            loaded.append(LoadedVICAL(source: source, provider: verified.vical.provider, issueID: verified.vical.issueID,
                                      date: verified.vical.date, nextUpdate: verified.vical.nextUpdate,
                                      entries: verified.vical.entries.count, anchoring: anchoring))
        }
        let lotes = loadLoTEs(configuration, at: time, gathered: &gathered, pending: &pending, problems: &problems)
        if let conflict = TrustFolder.scopeConflict(gathered.scoped) { problems.append("trust store: \(conflict)") }
        // Without anchors yet, a pending download may still bring some: the start decides after it.
        if gathered.anchors.isEmpty && pending.isEmpty {
            problems.append("trust store \(paths.isEmpty ? "(the embedded production bundle)" : paths.joined(separator: ", ")) holds no certificate"
                            + (loaded.contains { !$0.anchoring } ? " in use (a stale VICAL is refused: vicalStalePolicy refuse)" : ""))
        }
        return (TrustStore(anchors: gathered.anchors, allowNonSelfSignedAnchors: true, provenance: gathered.provenance), loaded, pending, lotes)
    }

    /// What a load gathers: the anchors, a provenance record per anchor, and each anchor's docTypes with where it came from.
    struct Gathered {
        var anchors: [Certificate]
        var provenance: [[UInt8]: AnchorProvenance]
        var scoped: [TrustFolder.ScopedAnchor]

        /// Adds an anchor of a list in use; under refuse the chain check itself refuses it once the list turns stale,
        /// reload or not.
        mutating func adopt(_ certificate: Certificate, docTypes: [String]?, recorded: AnchorProvenance, origin: String,
                            policy: VICALStalePolicy) {
            anchors.append(certificate)
            var recorded = recorded
            recorded.refusedWhenStale = policy == .refuse
            AnchorProvenance.record(recorded, for: certificate.sha256Fingerprint, in: &provenance)
            scoped.append(TrustFolder.ScopedAnchor(certificate: certificate, docTypes: docTypes, origin: origin))
        }
    }

    struct Failure: Error {
        let message: String
        /// About a `url` source's downloaded copy (missing or not verifying), not about the configuration.
        var aboutCopy = false
        /// `no_copy` or the copy's error code (see `Pending.category`).
        var category = "no_copy"
    }

    /// `list` verified, or nil with its problem in `problems` (a file) or in `pending` (a downloaded list without a
    /// usable copy, which waits for its download).
    static func verified(_ list: TrustList, configuration: ServerConfiguration, at time: Date, pending: inout [Pending],
                         problems: inout [String]) -> VerifiedTrustList? {
        switch verified(list, configuration: configuration, at: time) {
        case .success(let verified): return verified
        case .failure(let failure):
            if failure.aboutCopy { pending.append(Pending(list: list, reason: failure.message, category: failure.category)) } else { problems.append(failure.message) }
            return nil
        }
    }

    /// Reads `list` (its file, or the last good copy of a downloaded one) and verifies it against its pinned root.
    static func verified(_ list: TrustList, configuration: ServerConfiguration, at time: Date) -> Result<VerifiedTrustList, Failure> {
        let path = configuration.copyPath(list) ?? list.file
        let prefix = "\(list.kind) \(list.name): " + (list.url == nil ? "" : "the copy in \(configuration.vicalCacheDirectory): ")
        // Read at most one byte over the limit, whatever the file claims to be (a file that grows, a FIFO, a device).
        guard let handle = FileHandle(forReadingAtPath: path),
              let read = try? handle.read(upToCount: list.maxBytes + 1) ?? Data() else {
            return .failure(Failure(message: list.url == nil ? "\(list.kind) \(list.name): cannot read the file"
                                                             : "\(list.kind) \(list.name): no copy downloaded yet (\(path))",
                                    aboutCopy: list.url != nil))
        }
        try? handle.close()
        guard read.count <= list.maxBytes else {
            let code = list.kind == "lote" ? ErrorCode.loteTooLarge : ErrorCode.vicalMalformed
            return .failure(Failure(message: prefix + "\(code.rawValue): the file is over \(list.maxBytes) bytes, the most a list may be",
                                    aboutCopy: list.url != nil, category: code.rawValue))
        }
        do {
            return .success(try list.verify([UInt8](read), at: time, profile: configuration.profile))
        } catch {
            guard case .invalid(let invalid) = error else { return .failure(Failure(message: error.message(prefix: prefix))) }
            return .failure(Failure(message: error.message(prefix: prefix), aboutCopy: list.url != nil, category: invalid.code.rawValue))
        }
    }
}

extension TrustLoader.LoadedList {
    /// Whether the list's nextUpdate has passed at `time`.
    func isStale(at time: Date) -> Bool { listNextUpdate.map { $0 < time } ?? false }

    /// Whether its anchors anchor at `time`.
    func isTrusted(at time: Date, policy: VICALStalePolicy) -> Bool { anchoring && !(policy == .refuse && isStale(at: time)) }
}
