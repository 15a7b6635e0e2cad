import Foundation
import LoopbackClient
import Testing
import VerifyServer

/// Behind a load balancer: the client is the TCP peer unless the peer is a trusted proxy, then the first untrusted
/// address of the proxy chain read right to left. Per-client limits and log lines use that client.
@Suite("verify-server behind trusted proxies")
struct TrustedProxyTests {
    static func configuration(trusted: [String], header: ProxyHeader = .xForwardedFor, perClient: Int = 1) -> ServerConfiguration {
        var configuration = AppleSample.configuration()
        configuration.trustedProxies = trusted
        configuration.trustedProxyHeader = header
        configuration.maxOutstandingRequestsPerClient = perClient
        return configuration
    }

    /// `POST /v1/requests` with extra headers.
    static func create(_ server: RunningServer, headers: [(String, String)]) async throws -> LoopbackHTTPClient.Response {
        try await server.client.send(method: .POST, path: "/v1/requests", body: Array(AppleSample.createBody.utf8), headers: headers)
    }

    /// The `client` of the "request created" log lines, in order.
    static func loggedClients(_ lines: JSONLines) throws -> [String] {
        try lines.objects().filter { $0["message"] as? String == "request created" }
            .compactMap { ($0["metadata"] as? [String: Any])?["client"] as? String }
    }

    /// Creates one request per header set (each from a fresh connection from 127.0.0.1) and returns the client each was
    /// logged with; each is also the only request its client may have outstanding, so a second one from the same
    /// client would be 429.
    static func clients(for headerSets: [[(String, String)]], configuration: ServerConfiguration) async throws -> [String] {
        let lines = JSONLines()
        try await ServerFixture.withServer(configuration, logger: lines.logger()) { server async throws in
            for headers in headerSets {
                let created = try await create(server, headers: headers)
                #expect(created.status == 201, "\(headers): \(created.text)")
            }
        }
        return try loggedClients(lines)
    }

    @Test("a spoofed X-Forwarded-For from a peer that is not a trusted proxy is ignored: the peer is the client")
    func spoofedHeaderIgnored() async throws {
        let lines = JSONLines()
        try await ServerFixture.withServer(Self.configuration(trusted: ["10.0.0.0/8"]), logger: lines.logger()) { server async throws in
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "198.51.100.1")]).status == 201)
            // Another claimed address is the same client (127.0.0.1), which already has its one request outstanding.
            let second = try await Self.create(server, headers: [("X-Forwarded-For", "198.51.100.2")])
            #expect(second.status == 429, "\(second.text)")
            #expect(try errorCode(second) == "requests.too_many")
        }
        #expect(try Self.loggedClients(lines) == ["127.0.0.1"])
        // Without trustedProxies the header is not read either.
        let clients = try await Self.clients(for: [[("X-Forwarded-For", "198.51.100.3")]], configuration: Self.configuration(trusted: [], perClient: 5))
        #expect(clients == ["127.0.0.1"])
    }

    @Test("through trusted proxies: read right to left, the first untrusted address is the client, never the leftmost")
    func chain() async throws {
        let trusted = ["127.0.0.1", "10.0.0.0/8"]
        let clients = try await Self.clients(for: [
            // The client prepended a fake address; 203.0.113.9 is what the first trusted proxy (10.1.2.3) saw.
            [("X-Forwarded-For", "198.51.100.7, 203.0.113.9, 10.1.2.3")],
            // Several header lines are one list, in order; ports are dropped.
            [("X-Forwarded-For", "198.51.100.7"), ("X-Forwarded-For", "203.0.113.10:4711"), ("X-Forwarded-For", "10.9.9.9")],
            // Every hop trusted: the furthest one named.
            [("X-Forwarded-For", "10.0.0.5, 10.0.0.6")],
            // No header from a trusted peer: the peer.
            [],
        ], configuration: Self.configuration(trusted: trusted))
        #expect(clients == ["203.0.113.9", "203.0.113.10", "10.0.0.5", "127.0.0.1"])

        // The same client behind a different fake leftmost address is still the same client (its one request is out).
        try await ServerFixture.withServer(Self.configuration(trusted: trusted)) { server async throws in
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "198.51.100.1, 203.0.113.9")]).status == 201)
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "198.51.100.2, 203.0.113.9")]).status == 429)
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "198.51.100.1, 203.0.113.8")]).status == 201)
        }
    }

    @Test("IPv6: clients and trusted proxies; per-client limits count an IPv6 client by its /64")
    func ipv6() async throws {
        let trusted = ["127.0.0.1", "2001:db8:ffff::/48"]
        let clients = try await Self.clients(for: [
            [("X-Forwarded-For", "2001:db8:1:2::5, 2001:db8:ffff::1")],
            [("X-Forwarded-For", "[2001:db8:1:3::5]:443")],
            // An IPv4-mapped address is its IPv4 address.
            [("X-Forwarded-For", "::ffff:192.0.2.44")],
        ], configuration: Self.configuration(trusted: trusted))
        #expect(clients == ["2001:db8:1:2::5", "2001:db8:1:3::5", "192.0.2.44"])

        try await ServerFixture.withServer(Self.configuration(trusted: trusted)) { server async throws in
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "2001:db8:1:2::5")]).status == 201)
            // Same /64: the same client.
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "2001:db8:1:2:aaaa::6")]).status == 429)
            #expect(try await Self.create(server, headers: [("X-Forwarded-For", "2001:db8:1:4::5")]).status == 201)
        }
    }

    @Test("an IPv6 peer (a server on ::1): untrusted, its header is ignored; trusted, the client it names is logged")
    func ipv6Peer() async throws {
        for trusted in [[String](), ["::1"]] {
            var configuration = Self.configuration(trusted: trusted, perClient: 5)
            configuration.host = "::1"
            let lines = JSONLines()
            try await ServerFixture.withServer(configuration, logger: lines.logger()) { server async throws in
                let client = try LoopbackHTTPClient(host: "::1", port: try await server.app.port())
                let created = try await client.send(method: .POST, path: "/v1/requests", body: Array(AppleSample.createBody.utf8),
                                                    headers: [("X-Forwarded-For", "2001:db8::7")])
                #expect(created.status == 201, "\(created.text)")
            }
            #expect(try Self.loggedClients(lines) == [trusted.isEmpty ? "::1" : "2001:db8::7"])
        }
    }

    @Test("a malformed chain falls back to the peer")
    func malformed() async throws {
        let headerSets: [[(String, String)]] = [
            [("X-Forwarded-For", "not-an-address")],
            [("X-Forwarded-For", "203.0.113.9, , 10.0.0.1")],
            [("X-Forwarded-For", "unknown")],
            [("X-Forwarded-For", "203.0.113.9:99999")],
            [("X-Forwarded-For", "[203.0.113.9]")],
            [("X-Forwarded-For", "2001:db8::1%eth0")],
            [("X-Forwarded-For", String(repeating: "203.0.113.9, ", count: 1000) + "203.0.113.9")],
        ]
        for headers in headerSets {
            let clients = try await Self.clients(for: [headers], configuration: Self.configuration(trusted: ["127.0.0.1", "10.0.0.0/8"]))
            #expect(clients == ["127.0.0.1"], "\(headers.map(\.1).joined().prefix(60))")
        }
    }

    @Test("RFC 7239 Forwarded when configured: for= nodes, quoted IPv6 with a port; X-Forwarded-For is then not read")
    func forwarded() async throws {
        let configuration = Self.configuration(trusted: ["127.0.0.1", "10.0.0.0/8"], header: .forwarded)
        let clients = try await Self.clients(for: [
            [("Forwarded", "for=198.51.100.9, for=\"[2001:db8:cafe::17]:4711\";proto=https, For=10.0.0.2;by=10.0.0.3")],
            [("Forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43")],
            [("X-Forwarded-For", "192.0.2.61")],
            // Obfuscated or unknown nodes and broken syntax: the peer.
            [("Forwarded", "for=_hidden")],
            [("Forwarded", "for=\"[2001:db8::1\"")],
            [("Forwarded", "proto=https")],
            [("Forwarded", "for=192.0.2.62;for=192.0.2.63")],
        ], configuration: Self.configuration(trusted: configuration.trustedProxies, header: .forwarded, perClient: 10))
        #expect(clients == ["2001:db8:cafe::17", "192.0.2.60", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"])
    }

    @Test("trustedProxies entries that are not addresses or networks are configuration problems")
    func configurationProblems() throws {
        let environment = ["VERIFY_SERVER_TRUSTED_PROXIES": "10.0.0.0/8, fd00::/8, 192.0.2.1, ::1",
                           "VERIFY_SERVER_TRUSTED_PROXY_HEADER": "forwarded"]
        let (configuration, problems) = ConfigurationLoader.read(file: nil, environment: environment)
        #expect(problems.isEmpty)
        #expect(configuration.trustedProxies == ["10.0.0.0/8", "fd00::/8", "192.0.2.1", "::1"])
        #expect(configuration.trustedProxyHeader == .forwarded)
        #expect(!configuration.problems.contains { $0.contains("trustedProxies") })
        for bad in ["proxy.example", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/+8"] {
            var broken = configuration
            broken.trustedProxies = [bad]
            #expect(broken.problems.contains { $0.hasPrefix("trustedProxies entry") }, "\(bad)")
        }
        let (_, headerProblems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_TRUSTED_PROXY_HEADER": "x-real-ip"])
        #expect(headerProblems.contains { $0.contains("must be one of x-forwarded-for, forwarded") }, "\(headerProblems)")
    }
}
