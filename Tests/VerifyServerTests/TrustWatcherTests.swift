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
        let environment = ServerProcess.sampleEnvironment(["VERIFY_SERVER_TRUST_WATCH_INTERVAL": "0"])
        #expect(try ServerProcess.runToExit(environment: environment, arguments: ["--check-config"]).status == 0)

        let server = try ServerProcess.start(environment: environment)
        defer { server.stop() }
        let client = try await server.readyClient()
        var answers: [Int] = []
        for _ in 0 ..< 20 { answers.append(try await client.get("/healthz").status) }
        #expect(answers.allSatisfy { $0 == 200 }, "\(answers)")
        // Before the fix the service group ended with ServiceGroupError (the watcher returned): exit status 1.
        #expect(server.stop() == 0)
    }
}
