import Foundation
import LoopbackClient
import Testing
import TestSupport
@testable import VerifyServer

/// The operator's routes on a listener of their own (issue 47, finding 6): `/metrics`, the detailed `/readyz` and
/// `/v1/operator/…` leave the public listener, which keeps a bare readiness answer.
@Suite("verify-server: the private operator listener")
struct OperatorListenerTests {
    /// Apple's sample configuration as the default has it: the operator listener private, here on a free port.
    static func privateConfiguration() -> ServerConfiguration {
        var configuration = AppleSample.configuration()
        configuration.operatorListener = .private
        configuration.operatorPort = 0
        return configuration
    }

    @Test("the default is private on 127.0.0.1:9000; the test configuration shares the public listener")
    func defaults() {
        let configuration = ServerConfiguration()
        #expect(configuration.operatorListener == .private)
        #expect(configuration.operatorHost == "127.0.0.1" && configuration.operatorPort == 9000)
        #expect(AppleSample.configuration().operatorListener == .shared)
    }

    @Test("public listener: /metrics and /v1/operator/revocation 404, /readyz says its status only; operator listener: the probes, metrics and the detailed /readyz, no API")
    func split() async throws {
        try await ServerFixture.withServer(Self.privateConfiguration()) { server in
            for path in ["/metrics", "/v1/operator/revocation"] {
                #expect(try await server.client.get(path).status == 404, "\(path)")
            }
            let bare = try await server.client.get("/readyz")
            #expect(bare.status == 200)
            #expect(try jsonObject(bare).keys.sorted() == ["status"], "\(bare.text)")
            #expect(try await server.client.send(method: .HEAD, path: "/readyz", body: nil).status == 200)
            #expect(try await server.client.get("/healthz").status == 200)

            let operatorPort = try await server.app.operatorPort()
            #expect(operatorPort != (try await server.app.port()))
            let operatorClient = try LoopbackHTTPClient(port: operatorPort)
            let metrics = try await operatorClient.get("/metrics")
            #expect(metrics.status == 200 && metrics.text.contains("verify_server_http_requests_total"))
            // The public 404s were counted by the metrics the operator listener serves: one registry for both.
            #expect(metrics.text.contains(#"status="404""#), "\(metrics.text.prefix(400))")
            let detailed = try jsonObject(try await operatorClient.get("/readyz"))
            #expect(detailed["status"] as? String == "ready")
            #expect(detailed["trustAnchors"] as? Int == 1 && detailed["store"] != nil, "\(detailed)")
            #expect(try await operatorClient.get("/healthz").status == 200)
            // No token configured: the operator route refuses, as on a shared listener.
            #expect(try await operatorClient.get("/v1/operator/revocation").status == 401)
            // Neither the API nor the wallet-facing routes answer there.
            for path in ["/v1/transactions", "/v1/wallet/x/response", "/v1/requests"] {
                #expect(try await operatorClient.send(method: .POST, path: path, body: Array("{}".utf8)).status == 404, "\(path)")
            }
        }
    }

    @Test("a store that stops answering: the public /readyz says not_ready (503) with nothing else")
    func bareNotReady() async throws {
        try await ServerFixture.withServer(Self.privateConfiguration(), store: StallingStore(), hooks: StoreOutageTests.hooks) { server in
            let answer = try await StoreOutageTests.untilNotReady(server)
            #expect(answer.status == 503)
            #expect(try jsonObject(answer).keys.sorted() == ["status"] && answer.text.contains("not_ready"), "\(answer.text)")
        }
    }

    @Test("configuration problems: the public port, out of range, an empty host; none under shared", arguments: [
        (8080, "127.0.0.1", OperatorListener.private, "operatorPort 8080 is also port"),
        (70000, "127.0.0.1", .private, "operatorPort 70000 is outside"),
        (9000, "", .private, "operatorHost is empty"),
        (8080, "127.0.0.1", .shared, nil),
    ] as [(Int, String, OperatorListener, String?)])
    func problems(port: Int, host: String, listener: OperatorListener, problem: String?) {
        var configuration = ServerConfiguration()
        configuration.operatorPort = port
        configuration.operatorHost = host
        configuration.operatorListener = listener
        let found = configuration.problems.filter { $0.hasPrefix("operator") }
        if let problem {
            #expect(found.count == 1 && found[0].contains(problem), "\(found)")
        } else {
            #expect(found.isEmpty, "\(found)")
        }
    }

    @Test("the executable: the log names the operator listener; its port in use is one line naming operatorPort, exit 1")
    func executable() async throws {
        let first = try ServerProcess.start(environment: ServerProcess.sampleEnvironment())
        defer { first.stop() }
        _ = try await first.readyClient()
        let operatorPort = try await first.operatorPort()
        #expect(try await LoopbackHTTPClient(port: operatorPort).get("/metrics").status == 200)

        let second = try ServerProcess.start(environment: ServerProcess.sampleEnvironment(["VERIFY_SERVER_OPERATOR_PORT": String(operatorPort)]))
        defer { second.stop() }
        #expect(try await second.exitStatus() == 1)
        let lines = second.errorLines.filter { $0.contains("in use") }
        #expect(lines == ["verify-server: 127.0.0.1:\(operatorPort) is already in use; stop what listens there, or set operatorPort "
                          + "(VERIFY_SERVER_OPERATOR_PORT) or operatorHost (VERIFY_SERVER_OPERATOR_HOST)"], "\(second.errorLines)")
    }
}
