import CBOR
import CryptoCore
import Foundation
import Logging
import Mdoc
import NIOConcurrencyHelpers
import RevocationFetch
import ServiceLifecycle
import Verifier

/// How the downloads of each VICAL with a `url` went, by URL: what `/readyz` and `/metrics` report.
final class VICALRefreshStatus: Sendable {
    struct Source: Sendable {
        /// The last download that verified and was taken into use (or was the list in use already).
        var lastRefresh: Date?
        var lastAttempt: Date?
        /// The category of the last failure, nil after a success: `unreachable`, `refused_destination`, `too_large`, a
        /// `vical.*` code, `provider_changed`, `cache_unwritable` or `reload_failed`.
        var lastError: String?
        /// When the failures since the last success began.
        var failingSince: Date?
        var consecutiveFailures = 0
    }

    private let sources = NIOLockedValueBox<[String: Source]>([:])

    subscript(url: String) -> Source? { sources.withLockedValue { $0[url] } }

    func succeeded(_ url: String, at time: Date) {
        sources.withLockedValue { sources in
            sources[url] = Source(lastRefresh: time, lastAttempt: time)
        }
    }

    func failed(_ url: String, category: String, at time: Date) {
        sources.withLockedValue { sources in
            var source = sources[url] ?? Source()
            source.lastAttempt = time
            source.lastError = category
            if source.failingSince == nil { source.failingSince = time }
            source.consecutiveFailures += 1
            sources[url] = source
        }
    }
}

/// Keeps the VICALs with a `url` current: downloads each one every `refresh` seconds (varied by up to a tenth, so
/// instances do not fetch in step; after a failure, again within five minutes) through the list fetcher's download
/// (its destination policy, `revocationFetchAllow`, timeout and size limit), verifies it against the pinned root,
/// refuses a rollback (an older issue than the highest accepted, read from the store too, so another instance's newer
/// acceptance counts), writes it as the last good copy in `vicalCacheDirectory` and reloads the trust (swapped whole by
/// `RuntimeBox`). A failure keeps the list in use; `/readyz` and `verify_server_vical_refresh_failures_total` say so.
/// Under `vicalStalePolicy: refuse` it also reloads when a list in use passes its nextUpdate.
final class VICALRefresher: Service, Sendable {
    /// Waits between refreshes: the timer, injectable so tests drive the loop (`ServerHooks.vicalRefreshWait`).
    typealias Wait = @Sendable (Duration) async throws -> Void

    let box: RuntimeBox
    let download: BoundedDownload
    let metrics: ServerMetrics
    let logger: Logger
    /// The issue IDs the store remembers (every instance's acceptances).
    let remembered: @Sendable () async throws -> [String: UInt64]
    let wait: Wait
    /// The wall clock for `lastRefresh` (not the verification time, which test mode may pin).
    let now: @Sendable () -> Date
    private let gate = SerialGate()

    /// Longest wait before a failed download is tried again.
    static let retryAfterFailure: TimeInterval = 300
    /// The Accept header of a VICAL download.
    static let accept = "application/cose, application/cbor, application/octet-stream;q=0.9, */*;q=0.5"

    init(box: RuntimeBox, metrics: ServerMetrics, logger: Logger, now: @escaping @Sendable () -> Date,
         remembered: @escaping @Sendable () async throws -> [String: UInt64], wait: Wait? = nil) {
        let configuration = box.current.configuration
        var settings = FetchSettings()
        settings.timeout = .milliseconds(Int64(configuration.revocationFetchTimeout * 1000))
        settings.allowedDestinations = configuration.revocationFetchAllow.compactMap(FetchDestination.init)
        self.box = box
        self.download = BoundedDownload(settings: settings)
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.remembered = remembered
        self.wait = wait ?? { try await Task.sleep(for: $0) }
    }

    var configuration: ServerConfiguration { box.current.configuration }
    var urlSources: [VICALSource] { configuration.vicals.filter { $0.url != nil } }

    // MARK: The loop

    func run() async throws {
        let sources = urlSources
        let watchesStaleness = configuration.vicalStalePolicy == .refuse && !configuration.vicals.isEmpty
        guard !sources.isEmpty || watchesStaleness else {
            // A service that returns ends the whole service group: wait for shutdown instead.
            try? await gracefulShutdown()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for source in sources {
                group.addTask { await self.keepCurrent(source) }
            }
            if watchesStaleness { group.addTask { await self.watchStaleness() } }
        }
    }

    /// Refreshes `source` after every (jittered) interval until shutdown.
    private func keepCurrent(_ source: VICALSource) async {
        var failed = false
        while !Task.isCancelledOrShuttingDown {
            let delay = Self.delay(interval: source.refresh, afterFailure: failed, jitter: Double.random(in: -1 ... 1))
            do {
                try await cancelWhenGracefulShutdown { try await self.wait(delay) }
            } catch {
                return
            }
            if Task.isCancelledOrShuttingDown { return }
            failed = await refresh(source) == nil
        }
    }

    /// The wait before the next download: `interval` (or, after a failure, at most `retryAfterFailure`), varied by
    /// `jitter` (-1…1) times a tenth.
    static func delay(interval: TimeInterval, afterFailure: Bool, jitter: Double) -> Duration {
        let base = afterFailure ? min(interval, retryAfterFailure) : interval
        let seconds = base * (1 + 0.1 * max(-1, min(1, jitter)))
        return .milliseconds(Int64(seconds * 1000))
    }

    /// Under `vicalStalePolicy: refuse`: reloads once a list in use passes its nextUpdate, so its IACAs stop anchoring.
    private func watchStaleness() async {
        while !Task.isCancelledOrShuttingDown {
            let runtime = box.current
            let time = runtime.trustTime()
            let next = runtime.vicals.filter(\.anchoring).compactMap { $0.nextUpdate?.date }.filter { $0 >= time }.min()
            // A second past the nextUpdate; at most an hour, so a pinned test-mode time or a reload is noticed.
            let seconds = min(3600, max(1, (next?.timeIntervalSince(time) ?? 3600) + 1))
            do {
                try await cancelWhenGracefulShutdown { try await self.wait(.milliseconds(Int64(seconds * 1000))) }
            } catch {
                return
            }
            if Task.isCancelledOrShuttingDown { return }
            await reloadIfStale()
        }
    }

    /// Reloads when a list whose IACAs are in use is past its nextUpdate and the policy refuses stale lists; returns
    /// whether it reloaded.
    @discardableResult
    func reloadIfStale() async -> Bool {
        let runtime = box.current
        guard runtime.configuration.vicalStalePolicy == .refuse else { return false }
        let time = runtime.trustTime()
        guard let stale = runtime.vicals.first(where: { $0.anchoring && $0.isStale(at: time) }) else { return false }
        return (try? await gate.run { [self] in
            logger.warning("a VICAL passed its nextUpdate; its IACAs are no longer trusted (vicalStalePolicy refuse)", metadata: [
                "provider": "\(TerminalText.escaped(stale.provider))", "source": "\(TerminalText.escaped(stale.file))"])
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

    /// Downloads every `url` source now and reloads once (what the loop does, all at once); returns the failures by
    /// source name (empty when each is current).
    func refreshAll() async -> [String: String] {
        var failures: [String: String] = [:]
        for source in urlSources where await refresh(source) == nil {
            failures[source.name] = box.vicalRefreshes[source.url ?? ""]?.lastError ?? "failed"
        }
        if await reloadIfStale() { logger.info("trust reloaded: a VICAL in use is stale") }
        return failures
    }

    /// Downloads `source`, and when it brings a new list, verifies it, keeps it and reloads the trust. Returns whether
    /// the list changed, nil on a failure (the list in use stays).
    @discardableResult
    func refresh(_ source: VICALSource) async -> Bool? {
        guard let url = source.url else { return nil }
        let outcome: Result<Bool, Failure>? = try? await gate.run { [self] in
            var stored: Replaced
            do {
                stored = try await fetch(source)
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
            box.vicalRefreshes.succeeded(url, at: now())
            if changed {
                logger.info("VICAL refreshed", metadata: ["source": "\(TerminalText.escaped(source.name))"])
            }
            return changed
        case .failure(let failure)?:
            noteFailure(source, failure)
            return nil
        case nil:
            noteFailure(source, Failure(category: "failed", detail: "the refresh was cancelled"))
            return nil
        }
    }

    private func noteFailure(_ source: VICALSource, _ failure: Failure, atStart: Bool = false) {
        box.vicalRefreshes.failed(source.url ?? "", category: failure.category, at: now())
        let provider = box.current.vicals.first { $0.source == source }?.provider ?? "unknown"
        metrics.vicalRefreshFailed(provider: provider)
        logger.warning(atStart ? "VICAL download failed at start; its last good copy is used if there is one"
                               : "VICAL refresh failed; the list in use stays", metadata: [
            "source": "\(TerminalText.escaped(source.name))", "category": "\(failure.category)",
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
                try? VICALRefresher.write(previous, to: path)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Downloads and verifies `source`, and writes it as its last good copy when it differs from the copy in use.
    private func fetch(_ source: VICALSource) async throws -> Replaced {
        guard let url = source.url, let path = configuration.vicalCopyPath(source) else {
            throw Failure(category: "failed", detail: "not a url source")
        }
        let bytes: [UInt8]
        do {
            bytes = try await download.get(url, accept: Self.accept)
        } catch {
            throw Failure(category: error.category.rawValue, detail: error.detail)
        }
        let previous = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        let inUse = box.current.vicals.first { $0.source == source }
        if previous == bytes, inUse != nil { return Replaced(changed: false, path: path, previous: previous) }

        let roots: [Certificate]
        switch TrustLoader.roots(source) {
        case .success(let found): roots = found
        case .failure(let failure): throw Failure(category: "root_unreadable", detail: failure.message)
        }
        let verified: VICALVerification
        do {
            verified = try VICALVerification(bytes, roots: roots, at: box.current.trustTime(), profile: configuration.profile)
        } catch {
            throw Failure(category: error.code.rawValue, detail: error.message)
        }
        if let inUse, inUse.provider != verified.vical.provider {
            throw Failure(category: "provider_changed", detail: "the list is now \(verified.vical.provider)'s, not \(inUse.provider)'s; "
                          + "remove the copy \(path) to accept another provider's list from this URL")
        }
        // Another instance may have accepted a newer issue: the store's mark counts too.
        if let stored = try? await remembered() { box.remember(stored) }
        if !source.allowRollback,
           let rollback = VICALVerification.rollback(verified.vical, previousIssueID: box.highestIssueIDs[verified.vical.provider]) {
            throw Failure(category: rollback.code.rawValue, detail: rollback.message)
        }
        do {
            try Self.write(bytes, to: path)
        } catch {
            throw Failure(category: "cache_unwritable", detail: "cannot write \(path): \(error)")
        }
        return Replaced(changed: true, path: path, previous: previous)
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

    /// Before the server starts: downloads every `url` source, then loads the trust on the results. A source whose
    /// download fails is served from its last good copy; one without a usable copy refuses the start.
    ///
    /// - Throws: `ConfigurationProblems`, one line per source that has nothing to serve, and any other load problem.
    func prepare() async throws {
        guard !urlSources.isEmpty else { return }
        var failed: [String: Failure] = [:]
        for source in urlSources {
            do {
                _ = try await gate.run { [self] in try await fetch(source) }
                box.vicalRefreshes.succeeded(source.url ?? "", at: now())
            } catch {
                let failure = error as? Failure ?? Failure(category: "failed", detail: "\(error)")
                failed[source.url ?? ""] = failure
                noteFailure(source, failure, atStart: true)
            }
        }
        let problems = box.reloadProblems(logger: logger, logFailure: false)
        guard !problems.isEmpty else { return }
        // The sources without a usable copy, named with why their download failed.
        let pending = box.current.configuration.vicals.compactMap { source -> String? in
            guard let url = source.url, let failure = failed[url],
                  problems.contains(where: { $0.hasPrefix("vical \(source.name):") }) else { return nil }
            return "vical \(source.name): the download failed (\(failure.category): \(failure.detail)) and there is no usable copy in "
                + "\(configuration.vicalCacheDirectory); verify-server does not start without it"
        }
        // The composed line already says there is no copy.
        let named = configuration.vicals.filter { source in pending.contains { $0.hasPrefix("vical \(source.name): ") } }
        let rest = problems.filter { problem in !named.contains { problem.hasPrefix("vical \($0.name): no copy downloaded yet (") } }
        throw ConfigurationProblems(pending + rest)
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
            let refresh = vical.source.url.flatMap { vicalRefreshes[$0] }
            let stale = vical.isStale(at: time)
            var warnings: [String] = []
            if let refresh, let error = refresh.lastError {
                let since = refresh.failingSince.map(RFC3339.format) ?? "-"
                warnings.append("refresh failing since \(since) (\(error), \(refresh.consecutiveFailures) attempt(s)); the last good list "
                                + "stays in use")
            }
            if stale, let next = vical.nextUpdate {
                warnings.append(vical.anchoring && policy == .warn
                    ? "stale since its nextUpdate \(next); its IACAs are still trusted (vicalStalePolicy warn)"
                    : "stale since its nextUpdate \(next); its IACAs are not trusted (vicalStalePolicy refuse) until a current list is loaded")
            }
            return .object([
                ("provider", .string(vical.provider)),
                ("vicalIssueID", vical.issueID.map { .int($0) } ?? .null),
                ("date", .string(vical.date.description)),
                ("nextUpdate", vical.nextUpdate.map { .string($0.description) } ?? .null),
                ("stale", .bool(stale)),
                ("entries", .int(UInt64(vical.entries))),
                ("trusted", .bool(vical.anchoring)),
                ("source", .string(vical.source.name)),
                ("lastRefresh", refresh?.lastRefresh.map { .string(RFC3339.format($0)) } ?? .null),
                ("lastError", refresh?.lastError.map(JSONValue.string) ?? .null),
                ("warning", warnings.isEmpty ? .null : .string(warnings.joined(separator: "; "))),
            ])
        })
    }
}

extension ServerConfiguration {
    /// Downloads and verifies each VICAL with a `url` once, writing nothing (for `verify-server --check-config
    /// --connect`); one line per source that could not be downloaded or does not verify against its pinned root.
    public func checkVICALSources() async -> [String] {
        var settings = FetchSettings()
        settings.timeout = .milliseconds(Int64(revocationFetchTimeout * 1000))
        settings.allowedDestinations = revocationFetchAllow.compactMap(FetchDestination.init)
        let download = BoundedDownload(settings: settings)
        var problems: [String] = []
        for source in vicals {
            guard let url = source.url else { continue }
            let bytes: [UInt8]
            do {
                bytes = try await download.get(url, accept: VICALRefresher.accept)
            } catch {
                problems.append("vical \(source.name): the download failed (\(error.category.rawValue)): \(error.detail)")
                continue
            }
            switch TrustLoader.roots(source) {
            case .failure(let failure): problems.append(failure.message)
            case .success(let roots):
                do {
                    _ = try VICALVerification(bytes, roots: roots, at: verificationTime ?? Date(), profile: profile)
                } catch {
                    problems.append("vical \(source.name): \(error.code.rawValue): \(error.message)")
                }
            }
        }
        return problems
    }
}
