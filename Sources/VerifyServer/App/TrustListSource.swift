import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import RevocationFetch

/// A configured signed trust list, VICAL or LoTE, as the one download and refresh path (`TrustListRefresher`) sees it:
/// where it is, what to ask for, how large it may be, how it verifies, whose it is and what its rollback mark is.
enum TrustList: Sendable, Equatable {
    case vical(VICALSource)
    case lote(LoTESource)

    /// The shortest and longest `refresh` accepted, in seconds.
    static let refreshRange: ClosedRange<TimeInterval> = 60 ... 86_400

    /// The list's kind: its Accept header, size limit and verification.
    var listKind: TrustListKind {
        switch self {
        case .vical: .vical
        case .lote: .lote
        }
    }

    /// `vical` or `lote`, how problems and log lines name it.
    var kind: String { listKind.rawValue }
    var accept: String { listKind.accept }
    /// The largest body downloaded: the fetcher's limit, or the list's own when smaller.
    var maxBytes: Int { min(FetchSettings().maxBytes, listKind.maxBytes) }
    /// The last good copy's file name ending.
    var copySuffix: String { listKind == .vical ? ".cbor" : ".lote" }

    /// The configuration key the list comes from.
    var key: String { kind + "s" }

    /// The configured entry.
    var source: any TrustListSourceFields {
        switch self {
        case .vical(let source): source
        case .lote(let source): source
        }
    }

    var url: String? { source.url }
    var file: String { source.file }
    var root: String { source.root }
    var refresh: TimeInterval { source.refresh }
    var allowRollback: Bool { source.allowRollback }

    /// The file, or the URL without user info, query or fragment.
    var name: String { url.map(InputQuote.redactedURL) ?? file }

    /// Verifies `bytes` against the pinned root at `time`.
    func verify(_ bytes: [UInt8], at time: Date, profile: CertificateProfile) throws(TrustListRejection) -> VerifiedTrustList {
        let roots: [Certificate]
        do {
            roots = try TrustStore.load(paths: [root]).anchors
        } catch {
            throw .rootUnreadable("\(kind) \(name): root \(root): \(error)")
        }
        do {
            return try listKind.verify(bytes, roots: roots, at: time, profile: profile)
        } catch {
            throw .invalid(error)
        }
    }

    /// The rollback mark key of the list `runtime` has in use for this source, nil when none is loaded.
    func markInUse(_ runtime: VerifierRuntime) -> String? {
        switch self {
        case .vical(let source): runtime.vicals.first { $0.source == source }?.provider
        case .lote(let source): runtime.lotes.first { $0.source == source }?.rollbackKey
        }
    }

    /// Whether `runtime` has this source's list in use and its anchors anchor now: false while it has no usable copy
    /// (pending), and once it is stale under `vicalStalePolicy: refuse`.
    func anchors(in runtime: VerifierRuntime) -> Bool {
        let time = runtime.trustTime(), policy = runtime.configuration.vicalStalePolicy
        return switch self {
        case .vical(let source): runtime.vicals.first { $0.source == source }?.isTrusted(at: time, policy: policy) ?? false
        case .lote(let source): runtime.lotes.first { $0.source == source }?.isTrusted(at: time, policy: policy) ?? false
        }
    }

    /// Who publishes the list `runtime` has in use for this source, for the metrics' label.
    func owner(in runtime: VerifierRuntime) -> String {
        switch self {
        case .vical(let source): runtime.vicals.first { $0.source == source }?.provider ?? "unknown"
        case .lote(let source): runtime.lotes.first { $0.source == source }?.operatorName ?? "unknown"
        }
    }
}

/// Why a list's bytes did not verify: its pinned root could not be read, or the list is not valid under it.
enum TrustListRejection: Error {
    /// The whole message, naming the list and its root.
    case rootUnreadable(String)
    case invalid(VerificationError)

    /// The line a problem says: the root's message, or `prefix` then the list's error code and message.
    func message(prefix: String) -> String {
        switch self {
        case .rootUnreadable(let message): message
        case .invalid(let error): prefix + "\(error.code.rawValue): \(error.message)"
        }
    }
}

/// What `vicals` and `lotes` entries have in common.
protocol TrustListSourceFields: Sendable {
    var file: String { get }
    var url: String? { get }
    var root: String { get }
    var refresh: TimeInterval { get }
    var allowRollback: Bool { get }
}

extension VICALSource: TrustListSourceFields {}
extension LoTESource: TrustListSourceFields {}

/// The keys every `vicals` and `lotes` object shares: `file` or `url`, `root`, `refresh` (with a `url`) and
/// `allowRollback`.
struct TrustListEntry {
    var file = ""
    var url: String?
    var root: String
    var refresh: TimeInterval?
    var allowRollback = false

    /// Reads the shared keys of `object`; `rootHint` says what `root` is.
    init(_ object: [String: String], rootHint: String) throws(ConfigurationValueError) {
        guard let root = object["root"], !root.isEmpty else { throw ConfigurationValueError("every entry needs `root`\(rootHint)") }
        self.root = root
        switch (object["file"], object["url"]) {
        case (let file?, nil) where !file.isEmpty: self.file = file
        case (nil, let url?) where !url.isEmpty: self.url = url
        case (.some, .some): throw ConfigurationValueError("an entry has `file` or `url`, not both")
        default: throw ConfigurationValueError("every entry needs `file` or `url` (not empty)")
        }
        if let refresh = object["refresh"] {
            guard url != nil else { throw ConfigurationValueError("`refresh` is for entries with a `url`") }
            guard let seconds = Double(refresh), seconds.isFinite else { throw ConfigurationValueError("refresh must be a number of seconds") }
            self.refresh = seconds
        }
        if let flag = object["allowRollback"] {
            guard let allow = Bool(flag) else { throw ConfigurationValueError("allowRollback must be true or false") }
            allowRollback = allow
        }
    }

    /// Whether an environment entry's location is a URL.
    static func isURL(_ text: String) -> Bool {
        text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://")
    }
}

extension ServerConfiguration {
    /// Every configured VICAL and LoTE.
    var trustLists: [TrustList] { vicals.map(TrustList.vical) + lotes.map(TrustList.lote) }

    /// The lists the server downloads.
    var downloadedLists: [TrustList] { trustLists.filter { $0.url != nil } }

    /// The list files and pinned roots the trust watcher looks at (a downloaded list's copy is the refresher's).
    var trustListFiles: [String] { trustLists.flatMap { ($0.url == nil ? [$0.file] : []) + [$0.root] } }

    /// The `vicals` and `lotes` entries' problems that need no file or network access.
    var trustListProblems: [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for list in trustLists {
            if !seen.insert(list.kind + " " + (list.url ?? list.file)).inserted { problems.append("\(list.key): \(list.name) is listed twice") }
            guard let url = list.url else { continue }
            let parts = URLComponents(string: url)
            let scheme = parts?.scheme?.lowercased()
            if scheme != "http" && scheme != "https" || parts?.host?.isEmpty != false {
                problems.append("\(list.key): \(InputQuote.short(list.name)) is not an http or https URL")
            }
            if !TrustList.refreshRange.contains(list.refresh) {
                problems.append("\(list.key): refresh of \(list.name) must be \(Int(TrustList.refreshRange.lowerBound)) to "
                                + "\(Int(TrustList.refreshRange.upperBound)) seconds")
            }
        }
        if !downloadedLists.isEmpty && vicalCacheDirectory.isEmpty {
            problems.append("vicalCacheDirectory is empty; VICALs and LoTEs with a url keep their last good copy there")
        }
        return problems
    }

    /// Where the last good copy of a downloaded list is kept: `vicalCacheDirectory/<SHA-256 of the URL>.cbor` (VICAL)
    /// or `.lote`; nil for a file.
    func copyPath(_ list: TrustList) -> String? {
        guard let url = list.url else { return nil }
        let name = Hex.encode(Digest.hash(.sha256, Array(url.utf8))) + list.copySuffix
        return URL(fileURLWithPath: vicalCacheDirectory).appendingPathComponent(name).path
    }

    /// What every outbound list download shares: `revocationFetchTimeout`, `revocationFetchAllow` and `outboundCAFile`.
    var fetchSettings: FetchSettings {
        var settings = FetchSettings()
        settings.timeout = .milliseconds(Int64(revocationFetchTimeout * 1000))
        settings.allowedDestinations = revocationFetchAllow.compactMap(FetchDestination.init)
        settings.caFile = outboundCAFile
        return settings
    }

    /// The download of a list: `fetchSettings` and the list's size limit.
    func listDownload(_ list: TrustList) -> BoundedDownload {
        var settings = fetchSettings
        settings.maxBytes = list.maxBytes
        return BoundedDownload(settings: settings)
    }

    /// Downloads and verifies each VICAL and LoTE with a `url` once, writing nothing (for `verify-server --check-config
    /// --connect`): one line per list that could not be downloaded or does not verify against its pinned root, and one
    /// per list that downloaded and verified (`--check-config --connect` prints them).
    public func checkTrustLists() async -> (problems: [String], fetched: [String]) {
        var problems: [String] = [], fetched: [String] = []
        for list in downloadedLists {
            guard let url = list.url else { continue }
            let bytes: [UInt8]
            do {
                bytes = try await listDownload(list).get(url, accept: list.accept)
            } catch {
                problems.append("\(list.kind) \(list.name): the download failed (\(error.category.rawValue)): \(error.detail)")
                continue
            }
            do {
                let verified = try list.verify(bytes, at: verificationTime ?? Date(), profile: profile)
                fetched.append("\(list.kind) \(list.name): downloaded and verified: \(verified.summary)")
            } catch {
                problems.append(error.message(prefix: "\(list.kind) \(list.name): "))
            }
        }
        return (problems, fetched)
    }
}
