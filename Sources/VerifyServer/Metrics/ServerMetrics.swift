import Foundation
import CoreMetrics
import Mdoc
import Verifier
import Prometheus

/// The server's metrics, recorded through swift-metrics into one Prometheus registry per server.
///
/// They are exposed as text on `/metrics`. Labels carry formats, outcomes, error codes, stages and store operations:
/// never identifiers.
public final class ServerMetrics: Sendable {
    /// The Prometheus registry every metric of this server is recorded in.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// The per-stage timers, made once: every verification records up to six, and making a timer looks it up in the
    /// registry under its lock.
    private let stageTimers: [(stage: StageTimings.Stage, timer: CoreMetrics.Timer)]

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
        let stages: [StageTimings.Stage] = [.decode, .hpke, .issuer, .chain, .digests, .device]
        stageTimers = stages.map { stage in
            (stage, Timer(label: "verify_server_verification_stage_seconds", dimensions: [("stage", stage.rawValue)], factory: factory))
        }
    }

    /// Returns every metric in the Prometheus text exposition format, as `/metrics` serves it.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }

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

    /// The trust in use: the anchor count, and per VICAL its issue ID, age (from its `date`) and staleness.
    func trust(anchors: Int, vicals: [TrustLoader.LoadedVICAL], now: Date) {
        Gauge(label: "verify_server_trust_anchors", factory: factory).record(anchors)
        for vical in vicals {
            let dimensions = [("provider", vical.provider)]
            Gauge(label: "verify_server_vical_issue_id", dimensions: dimensions, factory: factory).record(Int(vical.issueID ?? 0))
            Gauge(label: "verify_server_vical_age_seconds", dimensions: dimensions, factory: factory)
                .record(now.timeIntervalSince(vical.date.date))
            Gauge(label: "verify_server_vical_stale", dimensions: dimensions, factory: factory).record(vical.stale ? 1 : 0)
        }
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
