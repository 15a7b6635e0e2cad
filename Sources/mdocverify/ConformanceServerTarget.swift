import Foundation
import MdocTesting

/// `--target verify-server URL`: drives verify-server's HTTP API (work in progress).
struct VerifyServerTarget: ConformanceTarget {
    let base: URL

    init(base: URL, corpus: ConformanceCorpus, options: ConformanceOptions) throws {
        throw UsageFailure("--target verify-server is not available yet")
    }

    var name: String { "verify-server \(base.absoluteString)" }
    func observe(_ testCase: RunCase) -> Observation { .error("not available") }
    func reproduce(_ testCase: RunCase) -> String? { nil }
}
