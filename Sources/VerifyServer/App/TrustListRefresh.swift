import CBOR
import CryptoCore
import Foundation
import Logging
import Mdoc
import MdocModel
import MdocTrust
import NIOConcurrencyHelpers
import RevocationFetch
import ServiceLifecycle
import Verifier

/// How the downloads of each VICAL and LoTE with a `url` went, by URL: what `/readyz` and `/metrics` report.
final class TrustListRefreshStatus: Sendable {
    struct Source: Sendable {
        /// The last download that verified and was taken into use (or was the list in use already).
        var lastRefresh: Date?
        /// The category of the last failure, nil after a success: `unreachable`, `refused_destination`, `too_large`, a
        /// `vical.*` or `lote.*` code, `provider_changed`, `root_unreadable`, `cache_unwritable` or `reload_failed`.
        var lastError: String?
        /// When the failures since the last success began.
        var failingSince: Date?
        var consecutiveFailures = 0
    }

    private let sources = NIOLockedValueBox<[String: Source]>([:])

    /// A downloaded list's key: its kind and URL (a VICAL and a LoTE may share a URL; nil for a file).
    private static func key(_ list: TrustList) -> String? { list.url.map { "\(list.kind) \($0)" } }

    subscript(list: TrustList) -> Source? { Self.key(list).flatMap { key in sources.withLockedValue { $0[key] } } }

    func succeeded(_ list: TrustList, at time: Date) {
        guard let key = Self.key(list) else { return }
        sources.withLockedValue { sources in
            sources[key] = Source(lastRefresh: time)
        }
    }

    /// A start served from the last good copy: its `lastRefresh` is the copy's last verified download (its file's
    /// modification time, which each successful download sets), unless this process already knows a later one.
    func servedFromCopy(_ list: TrustList, downloadedAt time: Date) {
        guard let key = Self.key(list) else { return }
        sources.withLockedValue { sources in
            var source = sources[key] ?? Source()
            if source.lastRefresh == nil { source.lastRefresh = time }
            sources[key] = source
        }
    }

    func failed(_ list: TrustList, category: String, at time: Date) {
        guard let key = Self.key(list) else { return }
        sources.withLockedValue { sources in
            var source = sources[key] ?? Source()
            source.lastError = category
            if source.failingSince == nil { source.failingSince = time }
            source.consecutiveFailures += 1
            sources[key] = source
        }
    }

    /// `/readyz`'s words on a failing refresh of `list`, nil when its last download succeeded (or it has none).
    func warning(_ list: TrustList) -> String? {
        guard let source = self[list], let error = source.lastError else { return nil }
        let since = source.failingSince.map(RFC3339.format) ?? "-"
        return "refresh failing since \(since) (\(error), \(source.consecutiveFailures) attempt(s)); the last good list stays in use"
    }

    /// `/readyz`'s `lastRefresh` and `lastError` of `list` (null for a file).
    func readiness(_ list: TrustList) -> [(String, JSONValue)] {
        let source = self[list]
        return [
            ("lastRefresh", source?.lastRefresh.map { .string(RFC3339.format($0)) } ?? .null),
            ("lastError", source?.lastError.map(JSONValue.string) ?? .null),
        ]
    }
}

/// Keeps the VICALs and LoTEs with a `url` current, one path for both kinds (`TrustList`): downloads each one every
/// `refresh` seconds (varied by up to a tenth, so instances do not fetch in step; after a failure, again within five
/// minutes) through the list fetcher's download (its destination policy, `revocationFetchAllow`, timeout and size limit),
/// verifies it against the pinned root, refuses a rollback (an older issue or sequence than the highest accepted, read
/// from the store too, so another instance's newer acceptance counts), writes it as the last good copy in
/// `vicalCacheDirectory` and reloads the trust (swapped whole by `RuntimeBox`). A failure keeps the list in use, unless
/// its own copy no longer verifies (the root was rotated): a reload then drops it. `/readyz` and the refresh failure
/// metrics say so. Under `vicalStalePolicy: refuse` it also reloads when a list in
/// use passes its nextUpdate.
final class TrustListRefresher: Service, Sendable {
    /// Waits between refreshes: the timer, injectable so tests drive the loop (`ServerHooks.vicalRefreshWait`).
    typealias Wait = @Sendable (Duration) async throws -> Void

    let box: RuntimeBox
    let metrics: ServerMetrics
    let logger: Logger
    /// The marks the store remembers (every instance's acceptances).
    let remembered: @Sendable () async throws -> [String: UInt64]
    let wait: Wait
    /// The wall clock for `lastRefresh` (not the verification time, which test mode may pin).
    let now: @Sendable () -> Date
    private let gate = SerialGate()

    /// Longest wait before a failed download is tried again.
    static let retryAfterFailure: TimeInterval = 300

    init(box: RuntimeBox, metrics: ServerMetrics, logger: Logger, now: @escaping @Sendable () -> Date,
         remembered: @escaping @Sendable () async throws -> [String: UInt64], wait: Wait? = nil) {
        self.box = box
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.remembered = remembered
        self.wait = wait ?? { try await Task.sleep(for: $0) }
    }

    var configuration: ServerConfiguration { box.current.configuration }

    // MARK: The loop

    func run() async throws {
        let lists = configuration.downloadedLists
        let watchesStaleness = configuration.vicalStalePolicy == .refuse && !configuration.trustLists.isEmpty
        guard !lists.isEmpty || watchesStaleness else {
            // A service that returns ends the whole service group: wait for shutdown instead.
            try? await gracefulShutdown()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for list in lists {
                group.addTask { await self.keepCurrent(list) }
            }
            if watchesStaleness { group.addTask { await self.watchStaleness() } }
        }
    }

    /// Refreshes `list` after every (jittered) interval until shutdown (after a failure, at most `retryAfterFailure`).
    /// The interval is waited in slices of at most `retryAfterFailure`: a list whose anchors stopped anchoring meanwhile
    /// (a reload dropped it as its root rotated or its copy went, or it turned stale under `vicalStalePolicy: refuse`)
    /// is downloaded again at the end of the slice instead of after the whole interval.
    private func keepCurrent(_ list: TrustList) async {
        var failed = false
        while !Task.isCancelledOrShuttingDown {
            var remaining = Self.delay(interval: list.refresh, afterFailure: failed, jitter: Double.random(in: -1 ... 1))
            repeat {
                let slice = min(remaining, .seconds(Self.retryAfterFailure))
                guard await pause(slice) else { return }
                remaining -= slice
            } while remaining > .zero && list.anchors(in: box.current)
            failed = await refresh(list) == nil
        }
    }

    /// Waits `duration`, ending early at graceful shutdown; false when the loop is to stop (cancelled or shutting down).
    private func pause(_ duration: Duration) async -> Bool {
        do {
            try await cancelWhenGracefulShutdown { try await self.wait(duration) }
        } catch {
            return false
        }
        return !Task.isCancelledOrShuttingDown
    }

    /// The wait before the next download: `interval` (or, after a failure, at most `retryAfterFailure`), varied by
    /// `jitter` (-1…1) times a tenth.
    static func delay(interval: TimeInterval, afterFailure: Bool, jitter: Double) -> Duration {
        let base = afterFailure ? min(interval, retryAfterFailure) : interval
        let seconds = base * (1 + 0.1 * max(-1, min(1, jitter)))
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The nextUpdate times of the lists whose anchors are in use.
    private static func nextUpdates(_ runtime: VerifierRuntime) -> [(date: Date, list: TrustList)] {
        let vicals: [(date: Date, list: TrustList)] = runtime.vicals.filter(\.anchoring).compactMap { vical in
            vical.nextUpdate.map { ($0.date, TrustList.vical(vical.source)) }
        }
        let lotes: [(date: Date, list: TrustList)] = runtime.lotes.filter(\.anchoring).map { ($0.nextUpdate.date, TrustList.lote($0.source)) }
        return vicals + lotes
    }

    /// Under `vicalStalePolicy: refuse`: reloads once a list in use passes its nextUpdate, so its anchors stop anchoring.
    private func watchStaleness() async {
        while !Task.isCancelledOrShuttingDown {
            let runtime = box.current
            let time = runtime.trustTime()
            let next = Self.nextUpdates(runtime).map(\.date).filter { $0 > time }.min()
            // A second past the nextUpdate; at most an hour, so a pinned test-mode time or a reload is noticed.
            let seconds = min(3600, max(1, (next?.timeIntervalSince(time) ?? 3600) + 1))
            guard await pause(.milliseconds(Int64(seconds * 1000))) else { return }
            await reloadIfStale()
        }
    }

    /// Reloads when a list whose anchors are in use is past its nextUpdate and the policy refuses stale lists; returns
    /// whether it reloaded.
    @discardableResult
    func reloadIfStale() async -> Bool {
        let runtime = box.current
        guard runtime.configuration.vicalStalePolicy == .refuse else { return false }
        let time = runtime.trustTime()
        // A list is stale after its nextUpdate, as its loader and the chain check judge it.
        let stale = Self.nextUpdates(runtime).first { $0.date < time }
        guard let stale else { return false }
        return (try? await gate.run { [self] in
            logger.warning("a trust list passed its nextUpdate; its anchors are no longer trusted (vicalStalePolicy refuse)", metadata: [
                "kind": "\(stale.list.kind)", "source": "\(TerminalText.escaped(stale.list.name))"])
            return box.reload(logger: logger)
        }) ?? false
    }

    // MARK: One refresh

    /// What a download yielded.
    struct Failure: Error {
        /// For `/readyz` and the metrics.
        let category: String
        /// For the log and the start-up problem (may name internal addresses).
        let detail: String
    }

    /// Downloads every `url` list now and reloads once (what the loop does, all at once); returns the failures by
    /// source name (empty when each is current).
    func refreshAll() async -> [String: String] {
        var failures: [String: String] = [:]
        for list in configuration.downloadedLists where await refresh(list) == nil {
            failures[list.name] = box.listRefreshes[list]?.lastError ?? "failed"
        }
        if await reloadIfStale() { logger.info("trust reloaded: a trust list in use is stale") }
        return failures
    }

    /// Downloads `list`, and when it brings a new list, verifies it, keeps it and reloads the trust. Returns whether the
    /// list changed, nil on a failure (the list in use stays, unless its copy no longer verifies).
    @discardableResult
    func refresh(_ list: TrustList) async -> Bool? {
        guard list.url != nil else { return nil }
        let outcome: Result<Bool, Failure>? = try? await gate.run { [self] in
            var stored: Replaced
            do {
                stored = try await fetch(list)
            } catch {
                return .failure(error as? Failure ?? Failure(category: "failed", detail: "\(error)"))
            }
            guard stored.changed else { return .success(false) }
            let problems = box.reloadProblems(logger: logger)
            guard problems.isEmpty else {
                stored.restore()
                return .failure(Failure(category: "reload_failed", detail: problems.joined(separator: "; ")))
            }
            return .success(true)
        }
        switch outcome {
        case .success(let changed)?:
            box.listRefreshes.succeeded(list, at: now())
            if changed {
                logger.info("trust list refreshed", metadata: ["kind": "\(list.kind)", "source": "\(TerminalText.escaped(list.name))"])
            }
            return changed
        case .failure(let failure)?:
            noteFailure(list, failure)
            return nil
        case nil:
            noteFailure(list, Failure(category: "failed", detail: "the refresh was cancelled"))
            return nil
        }
    }

    private func noteFailure(_ list: TrustList, _ failure: Failure, atStart: Bool = false) {
        box.listRefreshes.failed(list, category: failure.category, at: now())
        metrics.listRefreshFailed(list, owner: list.owner(in: box.current))
        logger.warning(atStart ? "trust list download failed at start; its last good copy is used if there is one"
                               : "trust list refresh failed; the list in use stays unless its copy no longer verifies (see /readyz untrustedLists)", metadata: [
            "kind": "\(list.kind)", "source": "\(TerminalText.escaped(list.name))", "category": "\(failure.category)",
            "detail": "\(TerminalText.escaped(failure.detail))"])
    }

    /// A downloaded list written over the last good copy, and how to put the previous copy back.
    struct Replaced {
        let changed: Bool
        let path: String
        let previous: [UInt8]?

        /// Puts the previous copy back (or removes the new one when there was none).
        func restore() {
            guard changed else { return }
            if let previous {
                try? TrustListRefresher.write(previous, to: path)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Downloads and verifies `list`, and writes it as its last good copy when it differs from the copy in use.
    private func fetch(_ list: TrustList) async throws -> Replaced {
        guard let url = list.url, let path = configuration.copyPath(list) else {
            throw Failure(category: "failed", detail: "not a url source")
        }
        let bytes: [UInt8]
        do {
            bytes = try await configuration.listDownload(list).get(url, accept: list.accept)
        } catch {
            throw Failure(category: error.category.rawValue, detail: error.detail)
        }
        let previous = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        let inUse = list.markInUse(box.current)
        // Verified even when unchanged: the pinned root may have been rotated since the copy was accepted. When the
        // download fails, the copy in use is verified too: one the root no longer vouches for is dropped by a reload.
        let verified: VerifiedTrustList
        do {
            verified = try verify(bytes, list: list)
        } catch {
            if inUse != nil, let previous, (try? verify(previous, list: list)) == nil { box.reload(logger: logger) }
            throw error
        }
        if previous == bytes, inUse != nil {
            // The copy's modification time says when it was last downloaded and verified (a start from it reports that).
            try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: path)
            return Replaced(changed: false, path: path, previous: previous)
        }
        if let inUse, inUse != verified.markKey {
            throw Failure(category: "provider_changed", detail: "the list is now \(verified.owner)'s, not the one in use (\(inUse)); "
                          + "remove the copy \(path) to accept another provider's list from this URL")
        }
        // Another instance may have accepted a newer issue: the store's mark counts too.
        if let stored = try? await remembered() { box.remember(stored) }
        if !list.allowRollback, let rollback = verified.rollback(previous: box.highestIssueIDs[verified.markKey]) {
            throw Failure(category: rollback.code.rawValue, detail: rollback.message)
        }
        do {
            try Self.write(bytes, to: path)
        } catch {
            throw Failure(category: "cache_unwritable", detail: "cannot write \(path): \(error)")
        }
        try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: path)
        return Replaced(changed: true, path: path, previous: previous)
    }

    /// `bytes` verified as `list` against its pinned root.
    private func verify(_ bytes: [UInt8], list: TrustList) throws(Failure) -> VerifiedTrustList {
        do {
            return try list.verify(bytes, at: box.current.trustTime(), profile: configuration.profile)
        } catch {
            switch error {
            case .rootUnreadable(let message): throw Failure(category: "root_unreadable", detail: message)
            case .invalid(let invalid): throw Failure(category: invalid.code.rawValue, detail: invalid.message)
            }
        }
    }

    /// Writes `bytes` to `path` through a file beside it and a rename, so a reader sees the old copy or the new one.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let target = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString)")
        try Data(bytes).write(to: staging)
        guard rename(staging.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: staging)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    // MARK: Start

    /// Before the server starts: downloads every `url` list, then loads the trust on the results. A list whose download
    /// fails is served from its last good copy; one without a usable copy refuses the start.
    ///
    /// - Throws: `ConfigurationProblems`, one line per list that has nothing to serve, and any other load problem.
    func prepare() async throws {
        let lists = configuration.downloadedLists
        guard !lists.isEmpty else { return }
        var failed: [String: Failure] = [:]
        for list in lists {
            do {
                _ = try await gate.run { [self] in try await fetch(list) }
                box.listRefreshes.succeeded(list, at: now())
            } catch {
                let failure = error as? Failure ?? Failure(category: "failed", detail: "\(error)")
                failed[list.kind + " " + (list.url ?? "")] = failure
                noteFailure(list, failure, atStart: true)
                if let path = configuration.copyPath(list),
                   let written = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
                    box.listRefreshes.servedFromCopy(list, downloadedAt: written)
                }
            }
        }
        let problems = box.reloadProblems(logger: logger, atStart: true)
        guard !problems.isEmpty else { return }
        // The lists without a usable copy, named with why their download failed.
        let pending = lists.filter { list in problems.contains { $0.hasPrefix("\(list.kind) \(list.name):") } }.compactMap { list -> (TrustList, String)? in
            guard let failure = failed[list.kind + " " + (list.url ?? "")] else { return nil }
            return (list, "\(list.kind) \(list.name): the download failed (\(failure.category): \(failure.detail)) and there is no usable copy "
                    + "in \(configuration.vicalCacheDirectory); verify-server does not start without it")
        }
        // The composed line already says there is no copy.
        let rest = problems.filter { problem in !pending.contains { problem.hasPrefix("\($0.0.kind) \($0.0.name): no copy downloaded yet (") } }
        throw ConfigurationProblems(pending.map(\.1) + rest)
    }
}

extension RuntimeBox {
    /// `/readyz`'s `vicals`: per loaded list its provider, issue, dates, staleness now, whether its IACAs are trusted,
    /// its source and, for a downloaded one, the last refresh and the last error's category; `warning` says what is
    /// wrong in words.
    func vicalReadiness(_ runtime: VerifierRuntime) -> JSONValue {
        let time = runtime.trustTime()
        let policy = runtime.configuration.vicalStalePolicy
        return .array(runtime.vicals.map { vical in
            let stale = vical.isStale(at: time)
            let trusted = vical.isTrusted(at: time, policy: policy)
            var warnings: [String] = []
            if stale, let next = vical.nextUpdate {
                warnings.append("stale since its nextUpdate \(next); " + StaleListWording.anchors(trusted: trusted, noun: "IACAs"))
            }
            return listReadiness(.vical(vical.source), warnings: warnings, fields: [
                ("provider", .string(vical.provider)),
                ("vicalIssueID", vical.issueID.map { .int($0) } ?? .null),
                ("date", .string(vical.date.description)),
                ("nextUpdate", vical.nextUpdate.map { .string($0.description) } ?? .null),
                ("stale", .bool(stale)),
                ("entries", .int(UInt64(vical.entries))),
                ("trusted", .bool(trusted)),
                ("source", .string(vical.source.name)),
            ])
        })
    }

    /// A list's `/readyz` object: `fields`, its refresh's `lastRefresh` and `lastError`, and `warning`: a failing
    /// refresh's words, then `warnings`, joined (null when there are none).
    func listReadiness(_ list: TrustList, warnings: [String], fields: [(String, JSONValue)]) -> JSONValue {
        let all = (listRefreshes.warning(list).map { [$0] } ?? []) + warnings
        return .object(fields + listRefreshes.readiness(list) + [("warning", all.isEmpty ? .null : .string(all.joined(separator: "; ")))])
    }
}

/// What `/readyz` says of a stale list's anchors: taken from whether they anchor now, so the words never contradict
/// `trusted`. Under `refuse` they stop anchoring at their nextUpdate (the chain check refuses them at use), whether or
/// not a reload has noticed yet.
enum StaleListWording {
    static func anchors(trusted: Bool, noun: String) -> String {
        trusted ? "its \(noun) are still trusted (vicalStalePolicy warn)"
            : "its \(noun) are not trusted (vicalStalePolicy refuse) until a current list is loaded"
    }
}
