import Foundation
import Testing
import VerifyServer

/// `HEAD /healthz` and `HEAD /readyz`, for probes (load balancers, Kubernetes) that send HEAD.
@Suite("verify-server health probes answer HEAD")
struct HealthProbeTests {
    @Test("HEAD /healthz and HEAD /readyz: 200 with no body; the other methods still get 405 with Allow naming GET and HEAD")
    func headAnswers() async throws {
        try await ServerFixture.withServer { server in
            for path in ["/healthz", "/readyz"] {
                let head = try await server.client.send(method: .HEAD, path: path, body: nil)
                #expect(head.status == 200, "HEAD \(path)")
                #expect(head.body.isEmpty, "HEAD \(path) has a body")
                let put = try await server.client.send(method: .PUT, path: path, body: [])
                #expect(put.status == 405)
                #expect(put.header("allow") == "GET, HEAD", "\(put.headers)")
            }
        }
    }

    @Test("HEAD /readyz says not ready (503, no body) when the store does not answer, as GET /readyz does")
    func headNotReady() async throws {
        try await ServerFixture.withServer(store: StallingStore(), hooks: StoreOutageTests.hooks) { server in
            let head = try await StoreOutageTests.untilNotReady(server, method: "HEAD")
            #expect(head.status == 503)
            #expect(head.body.isEmpty)
            let live = try await server.client.send(method: .HEAD, path: "/healthz", body: nil)
            #expect(live.status == 200)
        }
    }
}
