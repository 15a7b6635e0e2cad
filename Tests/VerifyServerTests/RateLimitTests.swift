import Foundation
import LoopbackClient
import Testing
import TestSupport
import VerifyServer
import Yams

/// The API's rate limit: a token bucket per client address over every route under /v1/ (the operator's excepted);
/// past it 429 with `Retry-After` and `requests.rate_limited`.
@Suite("verify-server rate limit")
struct RateLimitTests {
    static func configuration(rate: Double, burst: Int, trusted: [String] = []) -> ServerConfiguration {
        var configuration = AppleSample.configuration()
        configuration.rateLimit = rate
        configuration.rateLimitBurst = burst
        configuration.trustedProxies = trusted
        return configuration
    }

    static func expectLimited(_ answer: LoopbackHTTPClient.Response, retryAfter: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(answer.status == 429, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.header("Retry-After") == String(retryAfter), "\(answer.headers)", sourceLocation: sourceLocation)
        #expect(answer.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        #expect(try errorCode(answer) == "requests.rate_limited", sourceLocation: sourceLocation)
        #expect(answer.text.contains("rateLimit"), sourceLocation: sourceLocation)
    }

    @Test("past the burst: 429 with Retry-After on every /v1/ route; tokens come back at the configured rate")
    func burstThenRefill() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(Self.configuration(rate: 0.5, burst: 3), clock: clock) { server async throws in
            for _ in 0 ..< 3 { #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201) }
            // One token every 2 s.
            try Self.expectLimited(try await server.client.post("/v1/requests", json: AppleSample.createBody), retryAfter: 2)
            try Self.expectLimited(try await server.client.post("/v1/verify", json: verifyJSON("x", response: "AAAA")), retryAfter: 2)
            // Unknown paths and other methods under /v1/ too: no probing around the limit.
            try Self.expectLimited(try await server.client.get("/v1/nothing-here"), retryAfter: 2)
            try Self.expectLimited(try await server.client.get("/v1/requests"), retryAfter: 2)
            // The router reads the path by segments: extra slashes reach the same route, and the same limit.
            for path in ["//v1/requests", "/v1//requests", "///v1///requests/"] {
                try Self.expectLimited(try await server.client.post(path, json: AppleSample.createBody), retryAfter: 2)
            }
            clock.advance(by: 1)
            try Self.expectLimited(try await server.client.post("/v1/requests", json: AppleSample.createBody), retryAfter: 1)
            clock.advance(by: 1)
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            try Self.expectLimited(try await server.client.post("/v1/requests", json: AppleSample.createBody), retryAfter: 2)
            // Refills up to the burst, no more.
            clock.advance(by: 3600)
            for _ in 0 ..< 3 { #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201) }
            try Self.expectLimited(try await server.client.post("/v1/requests", json: AppleSample.createBody), retryAfter: 2)
        }
    }

    @Test("probes, metrics and the operator route are not limited; a refused request counts in the HTTP metrics")
    func unlimitedRoutes() async throws {
        try await ServerFixture.withServer(Self.configuration(rate: 1, burst: 1)) { server async throws in
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            try Self.expectLimited(try await server.client.post("/v1/requests", json: AppleSample.createBody), retryAfter: 1)
            for _ in 0 ..< 3 {
                #expect(try await server.client.get("/healthz").status == 200)
                #expect(try await server.client.get("/readyz").status == 200)
                // No operator token configured: 401, but not 429.
                #expect(try await server.client.get("/v1/operator/revocation").status == 401)
            }
            let metrics = try await server.client.get("/metrics")
            #expect(metrics.text.contains("status=\"429\""), "\(metrics.text)")
        }
    }

    @Test("per client: one client's bucket does not limit another (peer addresses, and clients named by a trusted proxy)")
    func perClient() async throws {
        try await ServerFixture.withServer(Self.configuration(rate: 1, burst: 2, trusted: ["127.0.0.1"])) { server async throws in
            let port = server.client.port
            func create(from address: String) async throws -> RawAnswer {
                try await RawAnswer.post("/v1/requests", json: AppleSample.createBody, from: address, port: port)
            }
            #expect(try await create(from: "127.0.0.2").status == 201)
            #expect(try await create(from: "127.0.0.2").status == 201)
            let limited = try await create(from: "127.0.0.2")
            #expect(limited.status == 429 && limited.retryAfter == 1 && limited.body.contains("requests.rate_limited"), "\(limited.body)")
            #expect(try await create(from: "127.0.0.3").status == 201)

            // Behind the trusted proxy 127.0.0.1, each named client has its own bucket.
            func create(as client: String) async throws -> LoopbackHTTPClient.Response {
                try await server.client.send(method: .POST, path: "/v1/requests", body: Array(AppleSample.createBody.utf8),
                                             headers: [("X-Forwarded-For", client)])
            }
            #expect(try await create(as: "198.51.100.1").status == 201)
            #expect(try await create(as: "198.51.100.1").status == 201)
            try Self.expectLimited(try await create(as: "198.51.100.1"), retryAfter: 1)
            #expect(try await create(as: "198.51.100.2").status == 201)
            // The proxy's own requests are yet another client.
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
        }
    }

    @Test("a client's refusals are logged once when they start, naming the client, not once per request")
    func loggedOnce() async throws {
        let lines = JSONLines()
        let clock = TestClock()
        try await ServerFixture.withServer(Self.configuration(rate: 1, burst: 1), clock: clock, logger: lines.logger()) { server async throws in
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            for _ in 0 ..< 3 { #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 429) }
            clock.advance(by: 1)
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 429)
        }
        let limited = try lines.objects().filter { $0["message"] as? String == "client rate limited" }
        #expect(limited.count == 2, "one per run of refusals: \(limited)")
        #expect(limited.allSatisfy { ($0["metadata"] as? [String: Any])?["client"] as? String == "127.0.0.1" })
    }

    @Test("0 turns the limit off; bad values are configuration problems; the default is on")
    func configuration() throws {
        #expect(ServerConfiguration().rateLimit > 0)
        #expect(ServerConfiguration().rateLimitBurst >= 1)
        let (parsed, problems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_RATE_LIMIT": "2.5",
                                                                                   "VERIFY_SERVER_RATE_LIMIT_BURST": "7"])
        #expect(problems.isEmpty)
        #expect(parsed.rateLimit == 2.5 && parsed.rateLimitBurst == 7)
        for (rate, burst) in [(-1.0, 1), (1, 0), (2_000_000, 1), (1, 2_000_000)] {
            var broken = ServerConfiguration()
            broken.rateLimit = rate
            broken.rateLimitBurst = burst
            #expect(broken.problems.contains { $0.hasPrefix("rateLimit") }, "\(rate) \(burst)")
        }
        let (_, nanProblems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_RATE_LIMIT": "nan"])
        #expect(nanProblems.contains { $0.contains("VERIFY_SERVER_RATE_LIMIT must be a number") }, "\(nanProblems)")
    }

    @Test("off (0): no request is refused")
    func off() async throws {
        try await ServerFixture.withServer(Self.configuration(rate: 0, burst: 1)) { server async throws in
            for _ in 0 ..< 5 { #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201) }
        }
    }
}

/// docs/openapi.yaml documents the rate limit's 429 on every operation the limit covers.
@Suite("verify-server rate limit in OpenAPI")
struct RateLimitOpenAPITests {
    @Test("every operation under /v1/ (the operator's excepted) documents 429")
    func documented() throws {
        let document = try #require(try Yams.load(yaml: VectorFiles.text("docs/openapi.yaml")) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var missing: [String] = []
        for (path, item) in paths where path.hasPrefix("/v1/") && !path.hasPrefix("/v1/operator/") {
            for (method, operation) in (item as? [String: Any]) ?? [:] where ["get", "post", "put", "delete", "patch", "options", "head"].contains(method) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                if responses["429"] == nil { missing.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(missing.isEmpty, "add '429': {$ref: '#/components/responses/RateLimited'} to: \(missing.sorted())")
    }
}
