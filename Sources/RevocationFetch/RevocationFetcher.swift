import CBOR
import CoreMetrics
import CryptoCore
import Foundation
import Logging
import MdocModel
import MdocTrust

/// Fetches status list tokens and CRLs over HTTP(S) and keeps them for the synchronous checks.
///
/// The checks never wait on the network: `source(files:)` answers from the cache and notes what is missing or due.
/// `resolving(_:)` runs a verification, fetches what it noted (one fetch in flight per URI, shared by every
/// verification that needs it), and runs its revocation checks again on the fetched lists. A list is reused until its
/// `exp`, its `ttl`, its `nextUpdate` or `FetchSettings.maxLifetime`, whichever is first, and refreshed in the
/// background (`run()`) before that. A failed fetch is an unknown status, never a valid one.
///
/// Downloads go through libcurl with a destination policy (`FetchSettings.allowedDestinations`): only public addresses
/// unless the operator allows more. Call `shutdown()` when done; later fetches fail as unknown status.
public final class RevocationFetcher: Sendable {
    /// The bounds and cache lifetimes this fetcher uses.
    public let settings: FetchSettings
    let now: @Sendable () -> Date
    let metrics: FetchMetrics
    let logger: Logger
    private let cache = Locked<[ListKey: CachedList]>([:])
    private let inflight = Locked<[ListKey: Task<Void, Never>]>([:])
    private let closed = Locked(false)

    /// Creates a fetcher with an empty cache.
    ///
    /// `now` dates cache lifetimes (the server passes its verification clock); `metricsFactory` receives fetch,
    /// failure, cache and list-age metrics; `logger` receives each fetch's outcome.
    public init(settings: FetchSettings = FetchSettings(), now: @escaping @Sendable () -> Date = { Date() },
                metricsFactory: any MetricsFactory = MetricsSystem.factory, logger: Logger = Logger(label: "revocation-fetch")) {
        self.settings = settings
        self.now = now
        self.metrics = FetchMetrics(factory: metricsFactory)
        self.logger = logger
    }

    /// A revocation source: `files` first (given material wins), then the fetched lists.
    public func source(files: StaticRevocationSource? = nil) -> FetchingRevocationSource {
        FetchingRevocationSource(files: files, fetcher: self)
    }

    /// Runs `body` (a verification that notes its revocation lookups in the record it is given), fetches the lists it
    /// found missing or due, and, if there were any, finishes it on them: only its revocation checks run again
    /// (`RevocationLookups.finished(as:)`). Lists that still cannot be fetched are reported as unknown.
    public func resolving<R>(_ body: (RevocationLookups) -> R) async -> R {
        let lookups = RevocationLookups()
        let first = body(lookups)
        let pending = PendingFetches(lookups)
        guard !pending.isEmpty else { return first }
        await fetch(pending)
        return lookups.finished(as: R.self) ?? first
    }

    /// Fetches what a verification noted, each list once however many verifications wait for it.
    public func fetch(_ pending: PendingFetches) async {
        await withTaskGroup(of: Void.self) { group in
            for (key, generation) in pending.seen {
                group.addTask { await self.fetch(key, unlessNewerThan: generation) }
            }
        }
    }

    /// Fetches `key` now, sharing a fetch already in flight (background refresh, tests).
    public func fetch(_ key: ListKey) async {
        await fetch(key, unlessNewerThan: Int.max)
    }

    /// Fetches `key` unless an attempt completed after generation `seen` (then its result is already cached).
    func fetch(_ key: ListKey, unlessNewerThan seen: Int) async {
        let task: Task<Void, Never>? = inflight.withLockedValue { inflight in
            if let running = inflight[key] { return running }
            if let generation = cache.withLockedValue({ $0[key]?.generation }), generation > seen { return nil }
            let task = Task { await self.perform(key) }
            inflight[key] = task
            return task
        }
        await task?.value
    }

    private func perform(_ key: ListKey) async {
        defer { _ = inflight.withLockedValue { $0.removeValue(forKey: key) } }
        let started = now()
        var outcome: Result<(CachedList.Value, Int), ListDownload.Failure>
        if closed.withLockedValue({ $0 }) {
            outcome = .failure(ListDownload.Failure(.unreachable, "the fetcher is shut down"))
        } else {
            do {
                let bytes = try await ListDownload(settings: settings)
                    .get(key.uri, accept: key.kind == .statusToken
                         ? "\(StatusToken.statusListType), \(StatusToken.identifierListType)" : "application/pkix-crl")
                outcome = Self.parse(bytes, kind: key.kind)
            } catch {
                outcome = .failure(error)
            }
        }
        let fetchedAt = now()
        cache.withLockedValue { cache in
            var entry = cache[key] ?? CachedList(lastUsed: started)
            if case .success((let value, _)) = outcome, let refusal = Self.refusal(of: value, replacing: entry.value, at: fetchedAt) {
                outcome = .failure(refusal)
            }
            entry.lastAttempt = fetchedAt
            entry.generation += 1
            switch outcome {
            case .success(let (value, byteCount)):
                entry.value = value
                entry.byteCount = byteCount
                entry.fetchedAt = fetchedAt
                entry.lastError = nil
                switch value {
                case .token(let token): entry.freshUntil = CachedList.lifetime(of: token, fetchedAt: fetchedAt, settings: settings)
                case .crls(let crls): entry.freshUntil = CachedList.lifetime(of: crls, fetchedAt: fetchedAt, settings: settings)
                }
            case .failure(let failure):
                entry.lastError = failure.description
            }
            cache[key] = entry
            evictIfFull(&cache)
        }
        metrics.fetched(key.kind, ok: (try? outcome.get()) != nil)
        switch outcome {
        // The URI comes from the MSO or a certificate, the reason may quote the server: both escaped for the log.
        case .success: logger.debug("revocation list fetched", metadata: ["list": "\(TerminalText.escaped(key.description))"])
        case .failure(let failure):
            logger.warning("revocation list fetch failed",
                           metadata: ["list": "\(TerminalText.escaped(key.description))", "category": "\(failure.category.rawValue)",
                                      "reason": "\(TerminalText.escaped(failure.detail))"])
        }
        metrics.ages(oldestAges(at: fetchedAt))
    }

    /// The parsed list and the bytes it takes (as downloaded, plus an inflated status list).
    private static func parse(_ bytes: [UInt8], kind: ListKey.Kind) -> Result<(CachedList.Value, Int), ListDownload.Failure> {
        switch kind {
        case .statusToken:
            do {
                let token = try StatusToken(bytes)
                var size = bytes.count
                if case .statusList(let list) = token.content { size += list.bytes.count }
                return .success((.token(token), size))
            } catch {
                return .failure(ListDownload.Failure(.badList, "not a status token: \(error.message)"))
            }
        case .crl:
            guard let crls = try? CertificateRevocationList.load(bytes), !crls.isEmpty else {
                return .failure(ListDownload.Failure(.badList, "not a CRL (DER or PEM)"))
            }
            return .success((.crls(crls), bytes.count))
        }
    }

    /// Why a fetched token must not be cached, or nil. A token whose signature does not verify with its own x5chain
    /// signer is never cached (the check could not trust it either, and it must not displace a good copy); one issued
    /// in the future is refused; and a token issued (`iat`) before the cached one by the same signer key, or without
    /// `iat` after one with, never replaces it — whoever answers for the list's host cannot roll its statuses back to
    /// an older, still unexpired list. Which anchor the signer must chain to is the check's decision, per document.
    private static func refusal(of fetched: CachedList.Value, replacing cached: CachedList.Value?, at now: Date) -> ListDownload.Failure? {
        guard case .token(let new) = fetched else { return nil }
        guard let signer = try? new.certificates().first, let key = try? signer.publicKey(), new.isSigned(by: key) else {
            return ListDownload.Failure(.badList, "the token carries no x5chain whose first certificate verifies its signature")
        }
        if let issued = new.issuedAt, issued > now.addingTimeInterval(maxIssuedAtSkew) {
            return ListDownload.Failure(.badList, "the token's iat \(RFC3339.format(issued)) is in the future")
        }
        guard case .token(let old)? = cached, let oldIssued = old.issuedAt,
              let oldSigner = try? old.certificates().first,
              oldSigner.subjectPublicKeyInfoSHA256 == signer.subjectPublicKeyInfoSHA256
        else { return nil }
        guard let newIssued = new.issuedAt else {
            return ListDownload.Failure(.badList, "the fetched token has no iat, the cached one was issued at \(RFC3339.format(oldIssued))")
        }
        guard newIssued < oldIssued else { return nil }
        return ListDownload.Failure(.badList, "the fetched token was issued at \(RFC3339.format(newIssued)), before the cached "
                                    + "copy (\(RFC3339.format(oldIssued))); the older list is refused")
    }

    /// How far in the future a fetched token's `iat` may lie (clock differences between the issuer and this server).
    static let maxIssuedAtSkew: TimeInterval = 300

    /// Drops least recently used lists while more than `maxEntries` are kept or they take more than `maxCachedBytes`.
    private func evictIfFull(_ cache: inout [ListKey: CachedList]) {
        var total = cache.values.reduce(0) { $0 + $1.byteCount }
        while cache.count > settings.maxEntries || total > settings.maxCachedBytes,
              let oldest = cache.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            total -= cache[oldest]?.byteCount ?? 0
            cache.removeValue(forKey: oldest)
        }
    }

    /// Stops fetching; later fetches fail (as unknown status).
    public func shutdown() async {
        closed.withLockedValue { $0 = true }
    }

    // MARK: Lookups (synchronous, from the checks)

    /// The cached list for `key`, or why there is none. Notes `key` for fetching when it is missing, or past its
    /// lifetime and not tried within the failure backoff, in `lookups` (the verification's own record).
    func lookup(_ key: ListKey, noting lookups: RevocationLookups?) -> Result<(CachedList.Value, String), RevocationUnavailable> {
        let time = now()
        let (entry, generation): (CachedList?, Int) = cache.withLockedValue { cache in
            cache[key]?.lastUsed = time
            return (cache[key], cache[key]?.generation ?? 0)
        }
        guard let entry else {
            lookups?.want(key.wanted, generation: generation)
            metrics.lookup(key.kind, "miss")
            return .failure(RevocationUnavailable("\(key.uri) has not been fetched"))
        }
        if entry.isFresh(at: time), let value = entry.value {
            metrics.lookup(key.kind, "hit")
            return .success((value, origin(key, entry, at: time)))
        }
        let backedOff = entry.lastError != nil && entry.lastAttempt.map { time.timeIntervalSince($0) < settings.failureBackoff.seconds } == true
        if !backedOff { lookups?.want(key.wanted, generation: generation) }
        if entry.lastError == nil, let value = entry.value {
            // Fetched by the latest attempt, yet past its lifetime already (an expired token, a stale CRL): the
            // check judges it and says why.
            metrics.lookup(key.kind, "stale")
            return .success((value, origin(key, entry, at: time)))
        }
        metrics.lookup(key.kind, "failure")
        var reason = "fetching \(key.uri) failed: \(entry.lastError ?? "no answer")"
        if let fetchedAt = entry.fetchedAt {
            reason += "; the copy fetched at \(RFC3339.format(fetchedAt)) is past its cache lifetime"
        }
        return .failure(RevocationUnavailable(reason))
    }

    private func origin(_ key: ListKey, _ entry: CachedList, at time: Date) -> String {
        let age = entry.fetchedAt.map { max(0, Int(time.timeIntervalSince($0))) } ?? 0
        return "\(key.uri) (fetched \(age) s ago)"
    }

    // MARK: Background refresh and reporting

    /// Fetches every list used within the idle limit that is near the end of its lifetime; drops idle ones.
    /// Returns how many it fetched.
    @discardableResult
    public func refreshDue() async -> Int {
        let time = now()
        let due: [ListKey] = cache.withLockedValue { cache in
            cache = cache.filter { time.timeIntervalSince($0.value.lastUsed) < settings.idleLimit.seconds }
            return cache.filter { $0.value.isDue(at: time, settings: settings) }.map(\.key)
        }
        await withTaskGroup(of: Void.self) { group in
            for key in due { group.addTask { await self.fetch(key) } }
        }
        metrics.ages(oldestAges(at: time))
        return due.count
    }

    /// Refreshes every `settings.refreshInterval` until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: settings.refreshInterval)
            if Task.isCancelled { break }
            await refreshDue()
        }
    }

    /// One list as `/readyz` shows it.
    public struct ListState: Sendable {
        /// The list.
        public let key: ListKey
        /// The list's state: fresh, stale (past its lifetime; a refresh is due) or unreachable (the latest fetch failed).
        public let state: String
        /// When the cached copy was fetched; nil when no fetch has succeeded.
        public let fetchedAt: Date?
        /// Until when the cached copy may be reused; nil when no fetch has succeeded.
        public let freshUntil: Date?
        /// Why the latest fetch failed; nil when it succeeded.
        public let error: String?
    }

    /// The cached lists, by URI.
    public func lists() -> [ListState] {
        let time = now()
        return cache.withLockedValue { cache in
            cache.map { key, entry in
                let state = entry.lastError != nil ? "unreachable" : entry.isFresh(at: time) ? "fresh" : "stale"
                return ListState(key: key, state: state, fetchedAt: entry.fetchedAt, freshUntil: entry.freshUntil, error: entry.lastError)
            }
        }.sorted { ($0.key.uri, $0.key.kind.rawValue) < ($1.key.uri, $1.key.kind.rawValue) }
    }

    private func oldestAges(at time: Date) -> [ListKey.Kind: TimeInterval] {
        cache.withLockedValue { cache in
            var ages: [ListKey.Kind: TimeInterval] = [:]
            for (key, entry) in cache {
                guard let fetchedAt = entry.fetchedAt else { continue }
                ages[key.kind] = max(ages[key.kind] ?? 0, time.timeIntervalSince(fetchedAt))
            }
            return ages
        }
    }
}
