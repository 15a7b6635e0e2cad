import CBOR
import Foundation
import MdocModel
import Verifier

/// Every case's result, and the report in text, JSON and JUnit XML.
public struct ConformanceSummary: Sendable {
    /// How the report names the target.
    public let target: String
    /// The results, in the cases' order.
    public let results: [ConformanceResult]
    /// How long the run took.
    public let seconds: Double

    /// A summary of `results`.
    public init(target: String, results: [ConformanceResult], seconds: Double) {
        self.target = target
        self.results = results
        self.seconds = seconds
    }

    /// How many cases ended with `outcome` (of `format` only, when given).
    public func count(_ outcome: ConformanceResult.Outcome, format: String? = nil) -> Int {
        results.filter { $0.outcome == outcome && (format == nil || $0.testCase.format == format) }.count
    }

    /// Whether the run failed: anything wrongly accepted, or with `strict` anything but passed and not applicable.
    public func failed(strict: Bool) -> Bool {
        if count(.wronglyAccepted) > 0 { return true }
        return strict && results.contains { ![.passed, .notApplicable].contains($0.outcome) }
    }

    /// Why cases were not applicable, each reason with its count, most frequent first.
    public var notApplicableReasons: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for result in results where result.outcome == .notApplicable { counts[result.reason, default: 0] += 1 }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    /// The formats of the results, in order of first appearance.
    public var formats: [String] {
        var seen: [String] = []
        for result in results where !seen.contains(result.testCase.format) { seen.append(result.testCase.format) }
        return seen
    }

    /// The report as text: counts per format and outcome, each failing case with its reason and how to reproduce it,
    /// and why cases were not applicable. `filesRemoved` adds a hint that the case files are gone. Every line is
    /// escaped for a terminal.
    public func text(filesRemoved: Bool = false) -> String {
        var lines = ["Conformance run against \(target): \(results.count) cases in \(String(format: "%.1f", seconds)) s", ""]
        let columns = formats + ["total"]
        let labelWidth = 29
        let width = max(10, (columns.map(\.count).max() ?? 0) + 2)
        func row(_ label: String, _ values: [String]) -> String {
            label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                + values.map { String(repeating: " ", count: max(0, width - $0.count)) + $0 }.joined()
        }
        lines.append(row("", columns))
        for outcome in ConformanceResult.Outcome.allCases {
            let label = outcome == .wronglyAccepted ? "wrongly accepted (critical)" : outcome.rawValue
            let values = formats.map { String(count(outcome, format: $0)) } + [String(count(outcome))]
            if outcome == .wrongCode && count(outcome) == 0 { continue }
            lines.append(row(label, values))
        }
        for outcome in ConformanceResult.Outcome.allCases where ![.passed, .notApplicable].contains(outcome) {
            let failing = results.filter { $0.outcome == outcome }
            guard !failing.isEmpty else { continue }
            lines.append("")
            lines.append(outcome == .wronglyAccepted ? "WRONGLY ACCEPTED (critical):" : "\(outcome.rawValue.uppercased()):")
            for result in failing {
                lines.append("  \(result.testCase.id) [\(result.testCase.clause)]")
                lines.append("      " + result.reason)
                if let reproduce = result.reproduce { lines.append("      reproduce: \(reproduce)") }
            }
        }
        let skipped = notApplicableReasons
        if !skipped.isEmpty {
            lines.append("")
            lines.append("NOT APPLICABLE:")
            for (reason, count) in skipped { lines.append("  \(count) × \(reason)") }
        }
        if filesRemoved, results.contains(where: { $0.reproduce != nil }) {
            lines.append("")
            lines.append("The case files were removed: run again with --keep DIR to keep them.")
        }
        // Case ids, clauses, reasons, the target and reproduce lines can all come from outside (a corpus, a profile,
        // the tested verifier's output): every line is escaped before it reaches the terminal.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// The report as JSON: the target, the counts per outcome and every case's result.
    public func json() -> String {
        var summary: [(String, JSONValue)] = []
        for outcome in ConformanceResult.Outcome.allCases { summary.append((outcome.rawValue, .int(count(outcome)))) }
        return JSONValue.object([
            ("target", .string(target)),
            ("seconds", .number(String(format: "%.3f", seconds))),
            ("summary", .object(summary)),
            ("cases", .array(results.map { result in
                var members: [(String, JSONValue)] = [
                    ("id", .string(result.testCase.id)),
                    ("format", .string(result.testCase.format)),
                    ("kind", .string(result.testCase.kind)),
                    ("clause", .string(result.testCase.clause)),
                    ("expected", .string(result.testCase.verdict.rawValue)),
                    ("expectedCodes", .array(result.testCase.codes.map(JSONValue.string))),
                    ("got", result.got.map { .string($0.rawValue) } ?? .null),
                    ("gotCodes", .array(result.gotCodes.map(JSONValue.string))),
                    ("outcome", .string(result.outcome.rawValue)),
                    ("reason", .string(result.reason)),
                    ("seconds", .number(String(format: "%.3f", result.seconds))),
                ]
                if let reproduce = result.reproduce { members.append(("reproduce", .string(reproduce))) }
                return .object(members)
            })),
        ]).serialized(pretty: true) + "\n"
    }
}
