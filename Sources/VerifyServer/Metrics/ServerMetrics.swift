import Foundation
import CoreMetrics
import NIOConcurrencyHelpers
import Mdoc
import MdocModel
import MdocTrust
import Verifier
import Prometheus

/// The server's metrics, recorded through swift-metrics into one Prometheus registry per server.
///
/// They are exposed as text on `/metrics`. Labels carry formats, outcomes, error codes, stages, store operations and
/// HTTP routes, methods and statuses: never identifiers. Every metric family has a `# HELP` line from `help`, so a new
/// metric needs its text there (`MetricsExpositionTests` checks it).
public final class ServerMetrics: Sendable {
    /// The Prometheus registry every metric of this server is recorded in.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// The per-stage timers, made once: every verification records up to six, and making a timer looks it up in the
    /// registry under its lock.
    private let stageTimers: [(stage: StageTimings.Stage, timer: CoreMetrics.Timer)]
    /// The per-list gauges the last `trust` call recorded, by label and dimensions: those of a list no longer in use
    /// (dropped by a reload, replaced by another provider's) are removed, not left at their last value.
    private let listGauges = NIOLockedValueBox<[String: (label: String, dimensions: [(String, String)])]>([:])
    /// The process's memory, CPU, file descriptors and start time, and the build's version.
    private let process: ProcessMetrics

    /// Stage latencies are tens of microseconds to milliseconds; Prometheus' default buckets start at 5 ms.
    static let durationBuckets: [Duration] = [
        .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
    ]

    /// Creates the metrics on `registry` (a new one by default), with duration buckets from 25 µs to 2.5 s.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        self.factory = factory
        process = ProcessMetrics(registry: registry)
        let stages: [StageTimings.Stage] = [.decode, .hpke, .issuer, .chain, .digests, .device]
        stageTimers = stages.map { stage in
            (stage, Timer(label: "verify_server_verification_stage_seconds", dimensions: [("stage", stage.rawValue)], factory: factory))
        }
    }

    /// Returns every metric in the Prometheus text exposition format, as `/metrics` serves it: each family's `# TYPE`
    /// line follows its `# HELP` line.
    public func exposition() -> [UInt8] {
        process.update()
        return Self.addingHelp(to: registry.emitToBuffer())
    }

    /// The `# HELP` text of every metric family the server records, the revocation fetcher's included.
    ///
    /// swift-metrics has no help text, so the exposition gets these lines added before each family's `# TYPE` line.
    public static let help: [String: String] = [
        "verify_server_requests_created_total": "Requests created by POST /v1/requests, by format.",
        "verify_server_verifications_total":
            "Verification outcomes (POST /v1/verify and the inspector) by format, outcome and error code.",
        "verify_server_verification_duration_seconds": "Time from a verify call's arrival to its answer, by outcome.",
        "verify_server_verification_stage_seconds": "Time spent in one verification stage, by stage.",
        "verify_server_store_operations_total": "Request-store operations by operation and result.",
        "verify_server_store_operation_duration_seconds": "Time of one request-store operation, by operation.",
        "verify_server_store_purged_requests_total": "Expired requests deleted from the request store.",
        "verify_server_trust_anchors": "Trust anchors in use.",
        "verify_server_untrusted_lists": "Downloaded VICALs and LoTEs without a usable copy (gone, or no longer verifying against the pinned root): their anchors are not trusted (/readyz untrustedLists).",
        "verify_server_vical_issue_id": "The vicalIssueID of each VICAL in use, by provider (0: none).",
        "verify_server_vical_age_seconds": "Seconds since the date of each VICAL in use at the time its staleness is judged (verificationTime in test mode), by provider.",
        "verify_server_vical_stale": "1 when a VICAL in use is past its nextUpdate, by provider.",
        "verify_server_vical_trusted": "1 when a VICAL's IACAs are trusted (0: refused as stale, vicalStalePolicy refuse), by provider.",
        "verify_server_vical_refresh_failures_total": "Failed downloads of a VICAL with a url (the list in use stays), by provider.",
        "verify_server_vical_refresh_age_seconds": "Seconds since a VICAL with a url was last downloaded and verified, by provider.",
        "verify_server_lote_refresh_failures_total": "Failed downloads of a LoTE with a url (the list in use stays), by operator.",
        "verify_server_lote_sequence_number": "The LoTESequenceNumber of each LoTE in use, by operator and list type.",
        "verify_server_lote_age_seconds": "Seconds since the issue date of each LoTE in use at the time its staleness is judged (verificationTime in test mode), by operator and list type.",
        "verify_server_lote_stale": "1 when a LoTE in use is past its NextUpdate, by operator and list type.",
        "verify_server_lote_trusted": "1 when a LoTE's anchors are trusted (0: it anchors nothing, or is refused as stale under vicalStalePolicy refuse), by operator and list type.",
        "verify_server_lote_refresh_age_seconds": "Seconds since a LoTE with a url was last downloaded and verified, by operator and list type.",
        "verify_server_http_requests_total": "HTTP requests answered, by route, method and status.",
        "verify_server_http_request_duration_seconds": "Time from an HTTP request's arrival to its answer, by route, method and status.",
        "verify_server_limit_refusals_total": "Requests refused (429) by a limit: rate_per_client, rate_per_key, outstanding_per_client, outstanding_per_key, outstanding_total.",
        "verify_server_webhook_attempts_total": "Webhook delivery attempts, by outcome (delivered, failed, gone, refused, given_up, interrupted).",
        "verify_server_webhook_backlog": "Webhook events waiting in the store's outbox (all instances), as the sender last measured it (after each pass that attempted events, else every 15 s).",
        "verify_server_webhook_oldest_age_seconds": "Seconds since the oldest waiting webhook event was queued (0: none waits).",
        "verify_server_build_info": "Always 1; the version label is the build's (verify-server --version).",
        "process_resident_memory_bytes": "Resident memory of the process, in bytes.",
        "process_virtual_memory_bytes": "Virtual memory of the process, in bytes.",
        "process_cpu_seconds_total": "CPU time the process has used (user and system), in seconds.",
        "process_open_fds": "File descriptors the process has open (connections, store files, sockets).",
        "process_max_fds": "The process's limit on open file descriptors (RLIMIT_NOFILE).",
        "process_start_time_seconds": "When the process started, in seconds since 1970.",
        "revocation_fetches_total": "Revocation list fetches, by list kind and outcome.",
        "revocation_cache_lookups_total": "Revocation list cache lookups, by list kind and result.",
        "revocation_oldest_list_age_seconds": "Age of the oldest cached revocation list, by list kind.",
    ]

    /// `text` (Prometheus text exposition) with a `# HELP` line from `help` before every `# TYPE` line that has none.
    public static func addingHelp(to text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 4096)
        var previous: ArraySlice<UInt8> = []
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.starts(with: Array("# TYPE ".utf8)) {
                let name = String(decoding: line.dropFirst(7).prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
                if let help = help[name], !previous.starts(with: Array("# HELP \(name) ".utf8)) {
                    out += Array("# HELP \(name) \(help)\n".utf8)
                }
            }
            out += line
            out.append(UInt8(ascii: "\n"))
            previous = line
        }
        // Every piece got a newline, the last one too: the text had one fewer.
        if !out.isEmpty { out.removeLast() }
        return out
    }

    /// One HTTP request answered: its route (the endpoint's path, or "unmatched"), method, status and time.
    func httpRequest(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Counter(label: "verify_server_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "verify_server_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    func requestCreated(format: VerificationReport.Format) {
        Counter(label: "verify_server_requests_created_total", dimensions: [("format", format.rawValue)], factory: factory).increment()
    }

    /// One `POST /v1/verify` outcome: verified, rejected (422), replayed, expired, unknown, malformed, too_large.
    func verification(format: String, outcome: String, code: ErrorCode?, duration: Duration) {
        Counter(label: "verify_server_verifications_total",
                dimensions: [("format", format), ("outcome", outcome), ("code", code?.rawValue ?? "none")], factory: factory).increment()
        Timer(label: "verify_server_verification_duration_seconds", dimensions: [("outcome", outcome)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Per-stage time of one verification (stages the pipeline did not reach are not recorded).
    func stages(_ timings: StageTimings) {
        for (stage, timer) in stageTimers {
            let duration = timings[stage]
            if duration > .zero { timer.recordNanoseconds(duration.nanoseconds) }
        }
    }

    /// One request-store operation and its result (ok, error, or the consume outcome).
    func storeOperation(_ operation: String, result: String, duration: Duration) {
        Counter(label: "verify_server_store_operations_total", dimensions: [("operation", operation), ("result", result)], factory: factory)
            .increment()
        Timer(label: "verify_server_store_operation_duration_seconds", dimensions: [("operation", operation)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// The trust in use: the anchor count, the downloaded lists without a usable copy, and per VICAL and LoTE its
    /// issue ID or sequence number, age (from its date), staleness at `trustTime`, whether its anchors are trusted and,
    /// for a downloaded one, the time since its last good download.
    func trust(_ runtime: VerifierRuntime, now: Date, refreshes: TrustListRefreshStatus) {
        let trustTime = runtime.trustTime(), policy = runtime.configuration.vicalStalePolicy
        Gauge(label: "verify_server_trust_anchors", factory: factory).record(runtime.trustStore.anchors.count)
        Gauge(label: "verify_server_untrusted_lists", factory: factory).record(runtime.pendingLists.count)
        var recorded: [String: (label: String, dimensions: [(String, String)])] = [:]
        func listGauge(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Gauge {
            recorded[label + "\u{0}" + dimensions.map { $0.0 + "=" + $0.1 }.joined(separator: "\u{0}")] = (label, dimensions)
            return Gauge(label: label, dimensions: dimensions, factory: factory)
        }
        func gauge(label: String, _ dimensions: [(String, String)], _ value: Double) { listGauge(label, dimensions).record(value) }
        func gauge(label: String, _ dimensions: [(String, String)], whole value: UInt64) {
            listGauge(label, dimensions).record(Int(clamping: value))
        }
        for vical in runtime.vicals {
            let dimensions = [("provider", vical.provider)]
            gauge(label: "verify_server_vical_issue_id", dimensions, whole: vical.issueID ?? 0)
            // Age and staleness are one decision, both at the trust time (the pinned verificationTime in test mode).
            gauge(label: "verify_server_vical_age_seconds", dimensions, trustTime.timeIntervalSince(vical.date.date))
            gauge(label: "verify_server_vical_stale", dimensions, vical.isStale(at: trustTime) ? 1 : 0)
            gauge(label: "verify_server_vical_trusted", dimensions, vical.isTrusted(at: trustTime, policy: policy) ? 1 : 0)
            if let last = refreshes[.vical(vical.source)]?.lastRefresh {
                gauge(label: "verify_server_vical_refresh_age_seconds", dimensions, now.timeIntervalSince(last))
            }
        }
        for lote in runtime.lotes {
            let dimensions = [("operator", lote.operatorName), ("type", lote.type ?? "-")]
            gauge(label: "verify_server_lote_sequence_number", dimensions, whole: lote.sequenceNumber)
            gauge(label: "verify_server_lote_age_seconds", dimensions, trustTime.timeIntervalSince(lote.issued.date))
            gauge(label: "verify_server_lote_stale", dimensions, lote.isStale(at: trustTime) ? 1 : 0)
            gauge(label: "verify_server_lote_trusted", dimensions, lote.isTrusted(at: trustTime, policy: policy) && lote.anchors > 0 ? 1 : 0)
            if let last = refreshes[.lote(lote.source)]?.lastRefresh {
                gauge(label: "verify_server_lote_refresh_age_seconds", dimensions, now.timeIntervalSince(last))
            }
        }
        let gone = listGauges.withLockedValue { previous in
            defer { previous = recorded }
            return previous.filter { recorded[$0.key] == nil }.values
        }
        for (label, dimensions) in gone { Gauge(label: label, dimensions: dimensions, factory: factory).destroy() }
    }

    /// A failed download of a VICAL (by provider) or LoTE (by operator) with a url.
    func listRefreshFailed(_ list: TrustList, owner: String) {
        switch list {
        case .vical:
            Counter(label: "verify_server_vical_refresh_failures_total", dimensions: [("provider", owner)], factory: factory).increment()
        case .lote:
            Counter(label: "verify_server_lote_refresh_failures_total", dimensions: [("operator", owner)], factory: factory).increment()
        }
    }

    /// One webhook attempt's outcome.
    /// One request refused by a limit: `rate_per_client`, `rate_per_key`, `outstanding_per_client`,
    /// `outstanding_per_key` or `outstanding_total`.
    func limitRefused(_ limit: String) {
        Counter(label: "verify_server_limit_refusals_total", dimensions: [("limit", limit)], factory: factory).increment()
    }

    func webhookAttempt(_ outcome: String) {
        Counter(label: "verify_server_webhook_attempts_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// The outbox as the last delivery pass saw it.
    func webhookBacklog(_ backlog: WebhookBacklog, now: Date) {
        Gauge(label: "verify_server_webhook_backlog", factory: factory).record(backlog.count)
        Gauge(label: "verify_server_webhook_oldest_age_seconds", factory: factory)
            .record(backlog.oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    func purged(_ count: Int) {
        Counter(label: "verify_server_store_purged_requests_total", factory: factory).increment(by: count)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ attoseconds / 1_000_000_000
    }
}
