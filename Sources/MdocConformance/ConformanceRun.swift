import CryptoCore
import Foundation
import MdocTesting

/// One run of conformance cases against a target: each case that applies is observed and judged, in `jobs` workers,
/// and the results come back in the cases' order.
///
///     let corpus = ConformanceCorpus(time: Date(), seed: ConformanceCorpus.defaultSeed)
///     let summary = ConformanceRun(target: myTarget, cases: corpus.cases.map(ConformanceRunCase.init)).run()
///     #expect(summary.count(.wronglyAccepted) == 0)
public struct ConformanceRun: Sendable {
    /// The verifier under test.
    public var target: any ConformanceTarget
    /// The cases, in report order.
    public var cases: [ConformanceRunCase]
    /// What the target does not do beside what it declares itself: cases that need it are not applicable.
    public var without: Set<ConformanceCase.Requirement>
    /// Whether a rejection must name this implementation's code (for this project's verifiers).
    public var expectCodes: Bool
    /// Cases run at once (at least 1).
    public var jobs: Int
    /// Called after each case with a one-line progress message (`[3/221] annex-c/fault/mso-expired: passed`).
    public var progress: (@Sendable (String) -> Void)?

    /// A run of `cases` against `target`.
    public init(target: any ConformanceTarget, cases: [ConformanceRunCase], without: Set<ConformanceCase.Requirement> = [],
                expectCodes: Bool = false, jobs: Int = 1, progress: (@Sendable (String) -> Void)? = nil) {
        self.target = target
        self.cases = cases
        self.without = without
        self.expectCodes = expectCodes
        self.jobs = jobs
        self.progress = progress
    }

    /// Runs every case and returns the summary.
    public func run() -> ConformanceSummary {
        let start = Date()
        let results = results()
        return ConformanceSummary(target: target.name, results: results, seconds: Date().timeIntervalSince(start))
    }

    /// Why `testCase` does not apply: a requirement the run or the target leaves out, or the target's own reason.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? {
        let unsupported = Set((without.union(target.unsupported)).map(\.rawValue))
        let missing = testCase.requires.filter(unsupported.contains)
        if !missing.isEmpty { return "needs \(missing.joined(separator: ", ")), which the target does not do" }
        return target.notApplicable(testCase)
    }

    /// The results in the cases' order; `jobs` workers take the next case in turn.
    func results() -> [ConformanceResult] {
        let collected = Locked(ResultSlots(slots: Array(repeating: nil, count: cases.count)))
        let workers = max(1, min(jobs, cases.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = collected.withLockedValue({ $0.next() }) {
                let testCase = cases[index]
                let result: ConformanceResult
                if let reason = notApplicable(testCase) {
                    result = .notApplicable(testCase, reason: reason)
                } else {
                    let caseStart = Date()
                    let observation = target.observe(testCase)
                    result = .judge(testCase, observation, expectCodes: expectCodes, seconds: Date().timeIntervalSince(caseStart),
                                    reproduce: target.reproduce(testCase))
                }
                let done = collected.withLockedValue { $0.store(result, at: index) }
                progress?("[\(done)/\(cases.count)] \(testCase.id): \(result.outcome.rawValue)")
            }
        }
        return collected.withLockedValue { $0.slots.compactMap { $0 } }
    }
}

/// The results of a run, filled by several workers behind one lock.
private struct ResultSlots {
    var slots: [ConformanceResult?]
    var taken = 0
    var finished = 0

    /// The index of the next case to run, or nil when every case is taken.
    mutating func next() -> Int? {
        guard taken < slots.count else { return nil }
        taken += 1
        return taken - 1
    }

    /// Stores a result; returns how many are done.
    mutating func store(_ result: ConformanceResult, at index: Int) -> Int {
        slots[index] = result
        finished += 1
        return finished
    }
}
