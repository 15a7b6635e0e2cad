import LoopbackClient
import Foundation
import Testing
import TestSupport
import VerifyServer

/// `trustWatchInterval: 0` turns the trust file check off, and the server keeps running.
@Suite("verify-server with the trust file check off")
struct TrustWatcherTests {
    @Test("in-process: with trustWatchInterval 0 the service group keeps serving and shuts down cleanly")
    func offInProcess() async throws {
        var configuration = AppleSample.configuration()
        configuration.trustWatchInterval = 0
        // A watcher that returned would end the group with an error, which withServer rethrows.
        try await ServerFixture.withServer(configuration) { server in
            #expect(try await server.client.get("/healthz").status == 200)
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            #expect(created.status == 201, "\(created.text)")
            #expect(server.app.checkTrustFiles() == false)
        }
    }

    @Test("the executable with VERIFY_SERVER_TRUST_WATCH_INTERVAL=0 passes --check-config, serves, and exits 0 on SIGTERM")
    func offProcess() async throws {
        let environment = [
            "VERIFY_SERVER_TEST_MODE": "true",
            "VERIFY_SERVER_PORT": "0",
            "VERIFY_SERVER_MERCHANT_ID": AppleSampleVector.merchantID,
            "VERIFY_SERVER_TEAM_ID": AppleSampleVector.teamID,
            "VERIFY_SERVER_DECRYPTION_KEYS": AppleSample.keyPath,
            "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
            "VERIFY_SERVER_STORE_URL": "memory:",
            "VERIFY_SERVER_TRUST_WATCH_INTERVAL": "0",
        ]
        let check = Process()
        check.executableURL = ServerProcess.binary
        check.arguments = ["--check-config"]
        check.environment = environment
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)

        let server = try ServerProcess.start(environment: environment)
        defer { server.stop() }
        let client = try LoopbackHTTPClient(port: try server.port())
        var answers: [Int] = []
        for _ in 0 ..< 20 { answers.append(try await client.get("/healthz").status) }
        #expect(answers.allSatisfy { $0 == 200 }, "\(answers)")
        // Before the fix the service group ended with ServiceGroupError (the watcher returned): exit status 1.
        #expect(server.stop() == 0)
    }
}
