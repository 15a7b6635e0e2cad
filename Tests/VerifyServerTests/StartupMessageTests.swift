import Foundation
import Testing
import TestSupport

/// What the `verify-server` executable tells an operator who starts it wrongly (issue 37).
@Suite("verify-server start-up messages")
struct StartupMessageTests {
    static func environment(port: Int) -> [String: String] {
        [
            "VERIFY_SERVER_TEST_MODE": "true",
            "VERIFY_SERVER_PORT": String(port),
            "VERIFY_SERVER_MERCHANT_ID": AppleSampleVector.merchantID,
            "VERIFY_SERVER_TEAM_ID": AppleSampleVector.teamID,
            "VERIFY_SERVER_DECRYPTION_KEYS": AppleSample.keyPath,
            "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
            "VERIFY_SERVER_STORE_URL": "memory:",
        ]
    }

    @Test("a port in use: one line naming the address and the setting, exit 1, no socket call or errno")
    func portInUse() throws {
        let first = try ServerProcess.start(environment: Self.environment(port: 0))
        defer { first.stop() }
        let port = try first.port()
        let second = try ServerProcess.start(environment: Self.environment(port: port))
        defer { second.stop() }
        let failure = #expect(throws: ServerProcess.Failure.self) { try second.port() }
        #expect(second.stop() == 1)
        let text = failure?.description ?? ""
        let lines = text.split(separator: "\n").filter { $0.contains("in use") }
        #expect(lines == ["verify-server: 127.0.0.1:\(port) is already in use; stop what listens there, or set port (VERIFY_SERVER_PORT) or host (VERIFY_SERVER_HOST)"],
                "\(text)")
        #expect(!text.contains("errno") && !text.contains("bind("), "\(text)")
        // The first server was not disturbed.
        #expect(try first.port() == port)
    }

    @Test("--help cites the OpenAPI file where it is (docs/openapi.yaml)")
    func helpCitesOpenAPI() throws {
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("docs/openapi.yaml"), "\(text)")
        #expect(!text.contains("Sources/VerifyServer/openapi.yaml"))
        #expect(FileManager.default.fileExists(atPath: VectorFiles.url("docs/openapi.yaml").path))
    }
}
