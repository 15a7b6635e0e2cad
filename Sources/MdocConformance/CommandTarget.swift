import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting

/// Any verifier through a command (`mdocverify conformance run --target command -- CMD ARGS…`): runs the command once
/// per case, the case folder in `MDOC_CONFORMANCE_CASE_DIR` and its id in `MDOC_CONFORMANCE_CASE_ID`, and reads its
/// verdict from a JSON line on stdout (`{"verdict": "accept"|"reject"|"not-applicable", "code": …, "reason": …}`)
/// or its exit status (0 accept, 1 reject). Its cases come from a corpus on disk (`ConformanceRunCase.manifest(in:)`).
public struct CommandTarget: ConformanceTarget {
    /// The command and its arguments.
    public let command: [String]
    /// Seconds one case may take; then the command is stopped and the case is an error.
    public let timeout: Double
    /// Whether the case folders stay after the run (a corpus given, or --keep): the reproduce line then names them.
    public let kept: Bool

    /// A target running `command` per case.
    public init(command: [String], timeout: Double = 60, kept: Bool = true) {
        self.command = command
        self.timeout = timeout
        self.kept = kept
    }

    /// The command, as the report names it.
    public var name: String { "command `\(command.joined(separator: " "))`" }

    /// A command cannot remember consumed requests between its runs.
    public var unsupported: Set<ConformanceCase.Requirement> { [.state] }

    /// Runs the command for the case's folder and reads its verdict.
    public func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation {
        guard let folder = testCase.folder else { return .error("the case has no folder") }
        var environment = ProcessInfo.processInfo.environment
        environment[ConformanceCorpus.caseDirectoryVariable] = folder.path
        environment[ConformanceCorpus.caseIDVariable] = testCase.id
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run(command, environment: environment, timeout: timeout)
        } catch {
            return .error("cannot start \(command.first ?? ""): \(error)")
        }
        if run.timedOut { return .error("no answer within \(Int(timeout)) s (stopped)") }
        return Self.verdict(stdout: run.stdout, stderr: run.stderr, status: run.status)
    }

    /// A JSON line `{"verdict": …, "code": …}` (the last one on stdout) wins; else exit status 0 accept, 1 reject.
    /// `{"verdict": "not-applicable", "reason": …}` says the verifier does not do what the case needs.
    static func verdict(stdout: String, stderr: String, status: Int32) -> ConformanceObservation {
        for line in stdout.split(whereSeparator: \.isNewline).reversed() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("{"), let object = JSONValue.read(trimmed.utf8), let verdictText = object["verdict"]?.string
            else { continue }
            if verdictText == "not-applicable" {
                let reason = object["reason"]?.string.map { InputQuote.short($0, limit: 200) } ?? "no reason given"
                return .notApplicable("the verifier says: \(reason)")
            }
            guard let verdict = ConformanceCase.Verdict(rawValue: verdictText) else {
                return .error("the JSON line's verdict is \(InputQuote.short(verdictText)), not accept, reject or not-applicable")
            }
            var codes: [String] = []
            if let code = object["code"]?.string { codes.append(code) }
            if let list = object["codes"]?.array?.compactMap(\.string) { codes += list.filter { !codes.contains($0) } }
            return .verdict(verdict, codes: codes, detail: "")
        }
        switch status {
        case 0: return .verdict(.accept, codes: [], detail: "")
        case 1: return .verdict(.reject, codes: [], detail: "")
        default:
            let tail = stderr.split(whereSeparator: \.isNewline).last.map { ": \(InputQuote.short(String($0)))" } ?? ""
            return .error("exit status \(status) and no JSON verdict line\(tail)")
        }
    }

    /// The environment and command that run the case again (or the `mdocverify` run that keeps its files).
    public func reproduce(_ testCase: ConformanceRunCase) -> String? {
        guard let folder = testCase.folder else { return nil }
        let line = "\(ConformanceCorpus.caseDirectoryVariable)=\(folder.path) \(ConformanceCorpus.caseIDVariable)=\(testCase.id) "
            + command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return kept ? line : "mdocverify conformance run --case \(testCase.id) --keep DIR --target command -- \(command.joined(separator: " "))"
    }
}
