import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// One case as the runner sees it: from a manifest on disk, or from the library's catalogue (verify-server).
struct RunCase {
    let id: String
    let format: String
    let kind: String
    let clause: String
    let summary: String
    let verdict: ConformanceCase.Verdict
    /// This implementation's code when exactly one is expected.
    let code: String?
    /// Every code this implementation may name.
    let codes: [String]
    let requires: [String]
    /// The case's folder (command target).
    let folder: URL?
    /// The library case (verify-server target).
    let libraryCase: ConformanceCase?

    /// `manifest.json`'s cases, their folders under `root`.
    static func manifest(in root: URL) throws -> [RunCase] {
        struct Manifest: Decodable {
            struct Entry: Decodable {
                let id, format, kind, clause, summary, verdict, folder: String
                let code: String?
                let codes, requires: [String]
            }
            let version: Int
            let cases: [Entry]
        }
        let url = root.appendingPathComponent("manifest.json")
        let text = try InputFiles.readText(url.path, what: "manifest", maxBytes: 32 << 20)
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        } catch {
            throw UsageFailure("\(url.path) is not a conformance manifest: generate one with `mdocverify conformance generate --out DIR`")
        }
        guard manifest.version == ConformanceCorpus.manifestVersion else {
            throw UsageFailure("\(url.path) is manifest version \(manifest.version); this mdocverify reads version \(ConformanceCorpus.manifestVersion): generate the corpus again")
        }
        return try manifest.cases.map { entry in
            guard let verdict = ConformanceCase.Verdict(rawValue: entry.verdict), !entry.folder.contains(".."), !entry.folder.hasPrefix("/") else {
                throw UsageFailure("\(url.path): case \(InputQuote.short(entry.id)) has an unknown verdict or a folder outside the corpus")
            }
            return RunCase(id: entry.id, format: entry.format, kind: entry.kind, clause: entry.clause, summary: entry.summary, verdict: verdict,
                           code: entry.code, codes: entry.codes, requires: entry.requires,
                           folder: root.appendingPathComponent(entry.folder, isDirectory: true), libraryCase: nil)
        }
    }

    init(id: String, format: String, kind: String, clause: String, summary: String, verdict: ConformanceCase.Verdict, code: String?,
         codes: [String], requires: [String], folder: URL?, libraryCase: ConformanceCase?) {
        self.id = id
        self.format = format
        self.kind = kind
        self.clause = clause
        self.summary = summary
        self.verdict = verdict
        self.code = code
        self.codes = codes
        self.requires = requires
        self.folder = folder
        self.libraryCase = libraryCase
    }

    /// A library case as a relying party that always checks a request sees it (verify-server).
    init(_ testCase: ConformanceCase) {
        let expected = testCase.expectedWithRequest
        self.init(id: testCase.id, format: testCase.format.rawValue, kind: testCase.kind.rawValue, clause: testCase.clause,
                  summary: testCase.summary, verdict: testCase.verdict, code: expected.code?.rawValue,
                  codes: expected.codes.map(\.rawValue).sorted(), requires: testCase.requires.map(\.rawValue).sorted(),
                  folder: nil, libraryCase: testCase)
    }

    /// What the case needs, in words: "rejected (mso.expired)" or "accepted".
    var expectation: String {
        verdict == .accept ? "accepted" : "rejected" + (codes.isEmpty ? "" : " (here: \(codes.joined(separator: " or ")))")
    }
}

/// What a target said about one case.
enum Observation {
    /// A verdict, with the codes the target named (possibly none) and a detail for the report.
    case verdict(ConformanceCase.Verdict, codes: [String], detail: String)
    /// No verdict: the target failed, timed out or answered something else.
    case error(String)
}

/// The outcome of one case.
struct CaseResult {
    enum Outcome: String, CaseIterable {
        case wronglyAccepted = "wrongly accepted"
        case wronglyRejected = "wrongly rejected"
        case wrongCode = "wrong code"
        case error
        case passed
        case notApplicable = "not applicable"
    }

    let testCase: RunCase
    let outcome: Outcome
    /// One sentence: why the case failed (or passed).
    let reason: String
    let got: ConformanceCase.Verdict?
    let gotCodes: [String]
    let seconds: Double
    let reproduce: String?

    /// Compares `observation` with what the case needs.
    static func judge(_ testCase: RunCase, _ observation: Observation, expectCodes: Bool, seconds: Double, reproduce: String?) -> CaseResult {
        func result(_ outcome: Outcome, _ reason: String, _ got: ConformanceCase.Verdict?, _ codes: [String]) -> CaseResult {
            CaseResult(testCase: testCase, outcome: outcome, reason: reason, got: got, gotCodes: codes, seconds: seconds,
                       reproduce: outcome == .passed ? nil : reproduce)
        }
        switch observation {
        case .error(let why):
            return result(.error, "no verdict: \(why)", nil, [])
        case let .verdict(verdict, codes, detail):
            let said = codes.isEmpty ? "" : " (\(codes.joined(separator: ", ")))"
            switch (testCase.verdict, verdict) {
            case (.accept, .accept):
                return result(.passed, "accepted", verdict, codes)
            case (.accept, .reject):
                return result(.wronglyRejected, "a correct response (\(testCase.summary)) must be accepted; it was rejected\(said)\(detail)",
                              verdict, codes)
            case (.reject, .accept):
                return result(.wronglyAccepted, "\(testCase.summary): must be \(testCase.expectation); it was accepted\(detail)", verdict, codes)
            case (.reject, .reject):
                if expectCodes && !Self.codesMatch(codes, testCase) {
                    return result(.wrongCode, "rejected\(codes.isEmpty ? " without a code" : said), where this implementation must say "
                                  + (testCase.code ?? testCase.codes.joined(separator: " or ")), verdict, codes)
                }
                return result(.passed, "rejected\(said)", verdict, codes)
            }
        }
    }

    /// Whether the named codes are the case's: exactly its one code, or within its set.
    static func codesMatch(_ codes: [String], _ testCase: RunCase) -> Bool {
        guard !codes.isEmpty else { return testCase.codes.isEmpty }
        if let code = testCase.code { return Set(codes) == [code] }
        return Set(codes).isSubset(of: Set(testCase.codes))
    }

    static func notApplicable(_ testCase: RunCase, reason: String) -> CaseResult {
        CaseResult(testCase: testCase, outcome: .notApplicable, reason: reason, got: nil, gotCodes: [], seconds: 0, reproduce: nil)
    }
}

/// A target that gives one verdict per case.
protocol ConformanceTarget: Sendable {
    /// How the report names the target.
    var name: String { get }
    /// Runs one case.
    func observe(_ testCase: RunCase) -> Observation
    /// How to run the case again by hand, when it fails.
    func reproduce(_ testCase: RunCase) -> String?
    /// Why the case does not apply to this target, or nil.
    func notApplicable(_ testCase: RunCase) -> String?
}

extension ConformanceTarget {
    func notApplicable(_ testCase: RunCase) -> String? { nil }
}

/// Runs the selected cases against the target, prints progress (stderr) and the report (stdout), writes JSON and
/// JUnit when asked.
struct ConformanceRunner {
    let options: ConformanceOptions

    func run() throws -> ConformanceSummary {
        let start = Date()
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let (target, corpusCases) = try targetAndCases(temporary: &temporary)
        var cases = corpusCases
        if let formats = options.formats { cases = cases.filter { case_ in formats.contains { $0.rawValue == case_.format } } }
        if !options.casePrefixes.isEmpty { cases = cases.filter { case_ in options.casePrefixes.contains { case_.id.hasPrefix($0) } } }
        guard !cases.isEmpty else { throw UsageFailure("no case matches --format and --case") }

        let summary = ConformanceSummary(target: target.name, results: results(of: cases, on: target), seconds: Date().timeIntervalSince(start))
        // Only the command target runs from files; the others build each answer for the live request.
        var fileBased = false
        if case .command = options.target { fileBased = true }
        print(summary.text(filesRemoved: fileBased && options.keep == nil && options.corpusFolder == nil))
        if let path = options.jsonPath { try write(summary.json(), to: path) }
        if let path = options.junitPath { try write(summary.junit(), to: path) }
        return summary
    }

    /// The target and every case of the corpus, before `--format` and `--case`. The command target runs from files:
    /// `--corpus`, else a corpus generated into `--keep` or into a temporary folder (set in `temporary`).
    func targetAndCases(temporary: inout URL?) throws -> (any ConformanceTarget, [RunCase]) {
        let target: any ConformanceTarget
        let cases: [RunCase]
        switch options.target {
        case .command(let command):
            let root: URL
            if let corpus = options.corpusFolder {
                root = URL(fileURLWithPath: corpus, isDirectory: true)
            } else {
                if let keep = options.keep {
                    root = URL(fileURLWithPath: keep, isDirectory: true)
                } else {
                    root = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-conformance-\(UUID().uuidString)", isDirectory: true)
                    temporary = root
                }
                try generate(into: root)
            }
            cases = try RunCase.manifest(in: root)
            target = CommandTarget(command: command, timeout: options.timeout, kept: options.corpusFolder != nil || options.keep != nil)
        case .verifyServer(let url):
            let corpus = ConformanceCorpus(time: options.time, seed: options.seed)
            cases = corpus.cases.map(RunCase.init)
            target = try VerifyServerTarget(base: url, corpus: corpus, options: options)
        case .http(let profile):
            let corpus = ConformanceCorpus(time: options.time, seed: options.seed)
            cases = corpus.cases.map(RunCase.init)
            target = try HTTPProfileTarget(profilePath: profile, corpus: corpus, options: options)
        }
        return (target, cases)
    }

    /// Runs `cases` on `target` in `--jobs` workers, printing progress; the results in the cases' order.
    func results(of cases: [RunCase], on target: any ConformanceTarget) -> [CaseResult] {
        let unsupported = Set(options.unsupported.map(\.rawValue))
        let collected = ResultList(count: cases.count)
        let expectCodes = options.expectCodes
        let jobs = min(options.jobs, cases.count)
        let selected = cases
        // `jobs` workers take the next case in turn; each result lands at its case's index.
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let index = collected.next() {
                let testCase = selected[index]
                let missing = testCase.requires.filter(unsupported.contains)
                let result: CaseResult
                if !missing.isEmpty {
                    result = .notApplicable(testCase, reason: "needs \(missing.joined(separator: ", ")), which the target does not do")
                } else if let reason = target.notApplicable(testCase) {
                    result = .notApplicable(testCase, reason: reason)
                } else {
                    let caseStart = Date()
                    let observation = target.observe(testCase)
                    result = .judge(testCase, observation, expectCodes: expectCodes, seconds: Date().timeIntervalSince(caseStart),
                                    reproduce: target.reproduce(testCase))
                }
                let done = collected.store(result, at: index)
                Self.progress("[\(done)/\(selected.count)] \(testCase.id): \(result.outcome.rawValue)")
            }
        }
        return collected.results
    }

    func generate(into root: URL) throws {
        let corpus = ConformanceCorpus(time: options.time, seed: options.seed, formats: options.formats)
        try OutputFiles.createDirectory(root.path)
        var built = 0
        do {
            try corpus.write(to: root) { _ in
                built += 1
                if built % 25 == 0 || built == corpus.cases.count { Self.progress("generating cases: \(built)/\(corpus.cases.count)") }
            }
        } catch let error as SimulationError {
            throw UsageFailure(error.description)
        }
    }

    func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw UsageFailure("cannot write \(path)") }
    }

    /// One progress line on stderr (escaped: case ids and command output come from files).
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
    }
}

/// The results of a run, filled by several workers.
private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [CaseResult?]
    private var taken = 0
    private var finished = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The index of the next case to run, or nil when every case is taken.
    func next() -> Int? {
        lock.withLock {
            guard taken < slots.count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    /// Stores a result; returns how many are done.
    func store(_ result: CaseResult, at index: Int) -> Int {
        lock.withLock {
            slots[index] = result
            finished += 1
            return finished
        }
    }

    var results: [CaseResult] { lock.withLock { slots.compactMap { $0 } } }
}

/// Every case's result, and the report in text, JSON and JUnit XML.
struct ConformanceSummary {
    let target: String
    let results: [CaseResult]
    let seconds: Double

    func count(_ outcome: CaseResult.Outcome, format: String? = nil) -> Int {
        results.filter { $0.outcome == outcome && (format == nil || $0.testCase.format == format) }.count
    }

    /// 1 when anything was wrongly accepted (with `strict`, when anything failed), else 0.
    func exitStatus(strict: Bool) -> ExitStatus {
        if count(.wronglyAccepted) > 0 { return .rejected }
        if strict, results.contains(where: { ![.passed, .notApplicable].contains($0.outcome) }) { return .rejected }
        return .verified
    }

    var formats: [String] {
        var seen: [String] = []
        for result in results where !seen.contains(result.testCase.format) { seen.append(result.testCase.format) }
        return seen
    }

    func text(filesRemoved: Bool) -> String {
        var lines = ["Conformance run against \(target): \(results.count) cases in \(String(format: "%.1f", seconds)) s", ""]
        let columns = formats + ["total"]
        let labelWidth = 29
        let width = max(10, (columns.map(\.count).max() ?? 0) + 2)
        func row(_ label: String, _ values: [String]) -> String {
            label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
                + values.map { String(repeating: " ", count: max(0, width - $0.count)) + $0 }.joined()
        }
        lines.append(row("", columns))
        for outcome in CaseResult.Outcome.allCases {
            let label = outcome == .wronglyAccepted ? "wrongly accepted (critical)" : outcome.rawValue
            let values = formats.map { String(count(outcome, format: $0)) } + [String(count(outcome))]
            if outcome == .wrongCode && count(outcome) == 0 { continue }
            lines.append(row(label, values))
        }
        for outcome in CaseResult.Outcome.allCases where ![.passed, .notApplicable].contains(outcome) {
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
        if filesRemoved, results.contains(where: { $0.reproduce != nil }) {
            lines.append("")
            lines.append("The case files were removed: run again with --keep DIR to keep them.")
        }
        // Case ids, clauses, reasons, the target and reproduce lines can all come from outside (a corpus, a profile,
        // the tested verifier's output): every line is escaped before it reaches the terminal.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    func json() -> String {
        var summary: [(String, JSONValue)] = []
        for outcome in CaseResult.Outcome.allCases { summary.append((outcome.rawValue, .int(count(outcome)))) }
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

    func junit() -> String {
        func escape(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\n", "\t": out.unicodeScalars.append(scalar)
                default:
                    // XML 1.0 has no other control characters.
                    if scalar.value < 0x20 { out += "?" } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuites name=\"mdoc conformance: \(escape(target))\" tests=\"\(results.count)\" time=\"\(String(format: "%.3f", seconds))\">"]
        for format in formats {
            let mine = results.filter { $0.testCase.format == format }
            let failures = mine.filter { [.wronglyAccepted, .wronglyRejected, .wrongCode].contains($0.outcome) }.count
            let errors = mine.filter { $0.outcome == .error }.count
            let skipped = mine.filter { $0.outcome == .notApplicable }.count
            lines.append("  <testsuite name=\"\(escape(format))\" tests=\"\(mine.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">")
            for result in mine {
                let head = "    <testcase classname=\"\(escape(format)).\(escape(result.testCase.kind))\" name=\"\(escape(result.testCase.id))\" time=\"\(String(format: "%.3f", result.seconds))\""
                let body = result.reason + (result.reproduce.map { "\nreproduce: \($0)" } ?? "")
                switch result.outcome {
                case .passed:
                    lines.append(head + "/>")
                case .notApplicable:
                    lines.append(head + "><skipped message=\"\(escape(result.reason))\"/></testcase>")
                case .error:
                    lines.append(head + "><error message=\"\(escape(result.reason))\">\(escape(body))</error></testcase>")
                default:
                    lines.append(head + "><failure type=\"\(escape(result.outcome.rawValue))\" message=\"\(escape(result.outcome.rawValue)): \(escape(result.reason))\">\(escape(body))</failure></testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
