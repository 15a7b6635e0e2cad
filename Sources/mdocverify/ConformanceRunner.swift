import CBOR
import Foundation
import MdocConformance
import MdocTesting

/// `conformance run`: builds the target and its cases from the options, runs them through `MdocConformance`, prints
/// progress (stderr) and the report (stdout), and writes JSON and JUnit when asked.
struct ConformanceRunner {
    let options: ConformanceOptions

    func run() throws -> ConformanceSummary {
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let (target, corpusCases) = try targetAndCases(temporary: &temporary)
        var cases = corpusCases
        if let formats = options.formats { cases = cases.filter { case_ in formats.contains { $0.rawValue == case_.format } } }
        if !options.run.cases.isEmpty {
            let ids = Set(cases.map(\.id))
            cases = cases.filter { case_ in options.run.cases.contains { Self.selects($0, case_.id, ids: ids) } }
        }
        guard !cases.isEmpty else { throw UsageFailure("no case matches --format and --case") }

        let summary = ConformanceRun(target: target, cases: cases, without: options.unsupported, expectCodes: options.run.expectCodes,
                                     jobs: options.run.jobs, progress: Self.progress).run()
        // Only the command target runs from files; the others build each answer for the live request.
        print(summary.text(filesRemoved: options.target.isCommand && options.run.keep == nil && options.run.corpus == nil))
        if let path = options.run.jsonPath { try write(summary.json(), to: path) }
        if let path = options.run.junitPath { try write(summary.junit(), to: path) }
        return summary
    }

    /// The target and every case of the corpus, before `--format` and `--case`. The command target runs from files:
    /// `--corpus`, else a corpus generated into `--keep` or into a temporary folder (set in `temporary`).
    func targetAndCases(temporary: inout URL?) throws -> (any ConformanceTarget, [ConformanceRunCase]) {
        switch options.target {
        case .command(let command):
            let root: URL
            if let corpus = options.run.corpus {
                root = URL(fileURLWithPath: corpus, isDirectory: true)
            } else {
                if let keep = options.run.keep {
                    root = URL(fileURLWithPath: keep, isDirectory: true)
                } else {
                    root = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-conformance-\(UUID().uuidString)", isDirectory: true)
                    temporary = root
                }
                try generate(into: root)
            }
            let target = CommandTarget(command: command, timeout: options.run.timeout, kept: options.run.corpus != nil || options.run.keep != nil)
            return (target, try ConformanceRunCase.manifest(in: root))
        case .verifyServer(let url):
            let corpus = ConformanceCorpus(time: options.time, seed: options.run.seed)
            let target = try VerifyServerTarget(base: url, corpus: corpus, apiKey: options.apiKey, relyingParty: try options.relyingParty(),
                                                timeout: options.run.timeout)
            return (target, corpus.cases.map(ConformanceRunCase.init))
        case .http(let profile):
            let corpus = ConformanceCorpus(time: options.time, seed: options.run.seed)
            let target = try HTTPProfileTarget(profilePath: profile, corpus: corpus, relyingParty: try options.relyingParty(), timeout: options.run.timeout)
            return (target, corpus.cases.map(ConformanceRunCase.init))
        }
    }

    /// Whether `--case selection` takes case `id`: a selection that names a case (one of `ids`) takes that case only,
    /// so `annex-c/fault/mso-expired` is not also `annex-c/fault/mso-expired-minutes`; any other is a prefix
    /// (`annex-c/fault/`, `openid4vp/fault/status-`).
    static func selects(_ selection: String, _ id: String, ids: Set<String>) -> Bool {
        ids.contains(selection) ? id == selection : id.hasPrefix(selection)
    }

    func generate(into root: URL) throws {
        let corpus = ConformanceCorpus(time: options.time, seed: options.run.seed, formats: options.formats)
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
    @Sendable static func progress(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
    }
}

extension ConformanceSummary {
    /// The CLI's exit: 1 when the run failed (`failed(strict:)`), else 0.
    func exitStatus(strict: Bool) -> ExitStatus { failed(strict: strict) ? .rejected : .verified }
}
