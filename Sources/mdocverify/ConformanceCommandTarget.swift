import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting

/// `--target command -- CMD ARGS…`: runs the command once per case, the case folder in `MDOC_CONFORMANCE_CASE_DIR`,
/// and reads its verdict from a JSON line on stdout or its exit status.
struct CommandTarget: ConformanceTarget {
    let command: [String]
    let timeout: Double
    /// Whether the case folders stay after the run (a corpus given, or --keep).
    let kept: Bool

    var name: String { "command `\(command.joined(separator: " "))`" }

    func observe(_ testCase: RunCase) -> Observation {
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
    static func verdict(stdout: String, stderr: String, status: Int32) -> Observation {
        for line in stdout.split(whereSeparator: \.isNewline).reversed() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any],
                  let verdictText = object["verdict"] as? String
            else { continue }
            guard let verdict = ConformanceCase.Verdict(rawValue: verdictText) else {
                return .error("the JSON line's verdict is \(InputQuote.short(verdictText)), not accept or reject")
            }
            var codes: [String] = []
            if let code = object["code"] as? String { codes.append(code) }
            if let list = object["codes"] as? [String] { codes += list.filter { !codes.contains($0) } }
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

    func reproduce(_ testCase: RunCase) -> String? {
        guard let folder = testCase.folder else { return nil }
        let line = "\(ConformanceCorpus.caseDirectoryVariable)=\(folder.path) \(ConformanceCorpus.caseIDVariable)=\(testCase.id) "
            + command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return kept ? line : "mdocverify conformance run --case \(testCase.id) --keep DIR --target command -- \(command.joined(separator: " "))"
    }
}

/// Runs a child process with a time limit, collecting stdout and stderr.
enum ChildProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let timedOut: Bool
    }

    /// The largest output kept from one stream; the rest is read and dropped.
    static let maxOutputBytes = 1 << 20

    static func run(_ command: [String], environment: [String: String], timeout: Double, stdin: Data? = nil) throws -> Result {
        guard let executable = command.first else { throw UsageFailure("no command") }
        let process = Process()
        process.executableURL = resolve(executable, path: environment["PATH"])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Set before the launch: a child that exits at once must still signal.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let group = DispatchGroup()
        let outBox = OutputBox()
        let errBox = OutputBox()
        for (handle, box) in [(out.fileHandleForReading, outBox), (err.fileHandleForReading, errBox)] {
            group.enter()
            Thread.detachNewThread {
                box.drain(handle)
                group.leave()
            }
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        }
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
                      stderr: String(decoding: errBox.data, as: UTF8.self), timedOut: timedOut)
    }

    /// `name` itself when it holds a slash; else the first executable of that name on `path`.
    static func resolve(_ name: String, path: String?) -> URL {
        if name.contains("/") { return URL(fileURLWithPath: name) }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: name)
    }
}

/// One stream's output, read to its end by one thread and read by another after the group's wait.
private final class OutputBox: @unchecked Sendable {
    var data = Data()

    func drain(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            if data.count < ChildProcess.maxOutputBytes { data.append(chunk.prefix(ChildProcess.maxOutputBytes - data.count)) }
        }
    }
}
