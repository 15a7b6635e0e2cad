import Foundation

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
        guard let executable = command.first else { throw ConformanceError("no command") }
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
