import Foundation

/// Runs the built `mdocverify` binary the way a user would, from the repository root.
public enum MdocVerifyCLI {
    public struct Run: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    public static var binary: URL { builtProduct("mdocverify") }

    /// An executable SwiftPM built next to the test bundle (it builds those the test targets depend on).
    public static func builtProduct(_ name: String) -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return VectorFiles.root.appendingPathComponent(".build/debug/" + name)
    }

    /// Runs the built `mdocverify` with `arguments`, from the repository root unless `directory` is given; a run still
    /// going after `hangGuard` seconds is killed (its status is then SIGKILL's, 9), so a hang fails the test instead of
    /// stalling the suite.
    public static func run(_ arguments: [String], in directory: URL? = nil, hangGuard: Double = 600) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? VectorFiles.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let guardTimer = DispatchSource.makeTimerSource()
        guardTimer.schedule(deadline: .now() + hangGuard)
        guardTimer.setEventHandler { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        guardTimer.resume()
        defer { guardTimer.cancel() }
        // Both pipes drained at once: reading one to its end first would block forever on a child that fills the
        // other's buffer (64 KiB) and waits for it to be read.
        let stderrBox = DataBox()
        let stderrRead = DispatchSemaphore(value: 0)
        let stderrHandle = err.fileHandleForReading
        Thread.detachNewThread {
            stderrBox.data = stderrHandle.readDataToEndOfFile()
            stderrRead.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        let stderr = stderrBox.data
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// The data one thread reads for another; the semaphore the reader signals orders the write before the read.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
