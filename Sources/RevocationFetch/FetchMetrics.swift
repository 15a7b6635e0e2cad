import CoreMetrics
import Foundation

/// Fetches and failures, cache lookups (hit, stale, miss, failure) and the oldest cached list's age, by list kind.
/// Labels never carry a URI or anything about a document.
struct FetchMetrics: Sendable {
    let factory: any MetricsFactory

    func fetched(_ kind: ListKey.Kind, ok: Bool) {
        Counter(label: "revocation_fetches_total", dimensions: [("kind", kind.rawValue), ("outcome", ok ? "ok" : "failed")],
                factory: factory).increment()
    }

    func lookup(_ kind: ListKey.Kind, _ result: String) {
        Counter(label: "revocation_cache_lookups_total", dimensions: [("kind", kind.rawValue), ("result", result)], factory: factory)
            .increment()
    }

    func ages(_ ages: [ListKey.Kind: TimeInterval]) {
        for (kind, age) in ages {
            Gauge(label: "revocation_oldest_list_age_seconds", dimensions: [("kind", kind.rawValue)], factory: factory).record(age)
        }
    }
}
