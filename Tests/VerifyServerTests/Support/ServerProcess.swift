import Foundation
import LoopbackClient
import Synchronization
import TestSupport

/// The built `verify-server` executable, started with a given environment; its stderr is read for the
/// "listening on" line that carries the ephemeral port.
final class ServerProcess: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process: Process
    private let stderrLines = Mutex<[String]>([])
    private let listening = DispatchSemaphore(value: 0)
    private let boundPort = Mutex<Int?>(nil)

    static var binary: URL { MdocVerifyCLI.builtProduct("verify-server") }

    /// Apple's sample configuration in test mode on an ephemeral port and the memory store, plus `extra`.
    static func sampleEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "VERIFY_SERVER_TEST_MODE": "true",
            "VERIFY_SERVER_PORT": "0",
            "VERIFY_SERVER_MERCHANT_ID": AppleSampleVector.merchantID,
            "VERIFY_SERVER_TEAM_ID": AppleSampleVector.teamID,
            "VERIFY_SERVER_DECRYPTION_KEYS": AppleSample.keyPath,
            "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
            "VERIFY_SERVER_STORE_URL": "memory:",
            // The process tests drive the deprecated routes.
            "VERIFY_SERVER_LEGACY_API": "on",
        ].merging(extra) { _, new in new }
    }

    /// Runs the executable to its end with `environment` (and `arguments`); its exit status and standard error.
    static func runToExit(environment: [String: String], arguments: [String] = []) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private init(process: Process) {
        self.process = process
    }

    static func start(environment: [String: String]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = binary
        process.currentDirectoryURL = VectorFiles.root
        // The private operator listener on a free port, unless the test names one: processes run side by side.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERIFY_SERVER_") }
            .merging(["VERIFY_SERVER_OPERATOR_PORT": "0"]) { _, new in new }
            .merging(environment) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let server = ServerProcess(process: process)
        try process.run()
        let handle = errors.fileHandleForReading
        Thread.detachNewThread { server.readLines(from: handle) }
        return server
    }

    /// The standard error lines read so far (every line up to "listening on" once `port()` returned).
    var errorLines: [String] { stderrLines.withLock { $0 } }

    /// Blocks until the server logged its port, or fails if it exited first.
    func port() throws -> Int {
        listening.wait()
        listening.signal()
        guard let port = boundPort.withLock({ $0 }) else {
            throw Failure(description: "verify-server exited before listening:\n" + stderrLines.withLock { $0.joined(separator: "\n") })
        }
        return port
    }

    /// The port the private operator listener logged, waiting up to 15 s for the line; fails with the log.
    func operatorPort() async throws -> Int {
        for _ in 0 ..< 150 {
            let port = errorLines.lazy.compactMap { line -> Int? in
                guard line.contains("operator endpoints"), let range = line.range(of: "on http://127.0.0.1:") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.first
            if let port { return port }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "verify-server logged no operator listener:\n" + errorLines.joined(separator: "\n"))
    }

    /// A client for the server once it answers `/healthz` (a loaded machine may take a moment between logging the
    /// port and serving it); fails with the server's log after 15 s.
    func readyClient() async throws -> LoopbackHTTPClient {
        let client = try LoopbackHTTPClient(port: try port())
        var lastError = ""
        for _ in 0 ..< 150 {
            do {
                if try await client.get("/healthz").status == 200 { return client }
            } catch {
                lastError = "\(error)"
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "verify-server did not answer /healthz (\(lastError)):\n" + stderrLines.withLock { $0.joined(separator: "\n") })
    }

    /// The exit status once the process ended by itself; fails when it still runs after 15 s.
    func exitStatus() async throws -> Int32 {
        for _ in 0 ..< 150 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        guard !process.isRunning else { throw Failure(description: "verify-server still runs:\n" + errorLines.joined(separator: "\n")) }
        return process.terminationStatus
    }

    /// SIGTERM (graceful shutdown), then the exit status. Idempotent.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        // A process that does not end within 30 s of SIGTERM is killed, so no test waits on it for ever.
        for _ in 0 ..< 300 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func readLines(from handle: FileHandle) {
        var pending = Data()
        var signalled = false
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex ..< newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex ... newline)
                stderrLines.withLock { $0.append(line) }
                if !signalled, let port = Self.port(in: line) {
                    boundPort.withLock { $0 = port }
                    signalled = true
                    listening.signal()
                }
            }
        }
        if !signalled { listening.signal() }
    }

    static func port(in line: String) -> Int? {
        guard let range = line.range(of: "listening on http://127.0.0.1:") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
