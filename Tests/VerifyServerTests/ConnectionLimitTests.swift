import NIOEmbedded
import NIOCore
import LoopbackClient
import Testing
@testable import VerifyServer

/// Slow or greedy clients cannot hold the server's sockets.
@Suite("verify-server connection limits")
struct ConnectionLimitTests {
    @Test("a body that does not arrive within bodyTimeout is answered 408 (the deadline is injected: no waiting)")
    func bodyTimeout() async throws {
        let hooks = ServerHooks(bodyDeadline: { _ in })
        try await ServerFixture.withServer(hooks: hooks) { server in
            let answer = try await server.client.postHeadWithoutBody("/v1/verify", declaredLength: 100_000)
            #expect(answer.status == 408)
            #expect(try errorCode(answer) == "input.malformed")
            #expect(answer.text.contains("did not arrive"))
        }
    }

    @Test("without an injected deadline the limit is the server's own timer: a body that never arrives gets 408")
    func bodyTimeoutOnTheEventLoopTimer() async throws {
        var configuration = AppleSample.configuration()
        configuration.bodyTimeout = 0.2
        try await ServerFixture.withServer(configuration) { server in
            let answer = try await server.client.postHeadWithoutBody("/v1/verify", declaredLength: 100_000)
            #expect(answer.status == 408)
            #expect(answer.text.contains("did not arrive"))
            // The timer ended that read only; the server goes on serving.
            #expect(try await server.client.get("/healthz").status == 200)
        }
    }

    @Test("beyond maxConnectionsPerIP a connection is closed at once; the ones within the cap stay open")
    func perAddressCap() async throws {
        var configuration = AppleSample.configuration()
        configuration.maxConnectionsPerIP = 2
        try await ServerFixture.withServer(configuration) { server in
            var connections: [LoopbackHTTPClient.IdleConnection] = []
            for _ in 0 ..< 3 { connections.append(try await server.client.openIdleConnection()) }
            // The server accepts on several event loops, so any one of the three may be the one beyond the cap.
            let (closes, continuation) = AsyncStream<Int>.makeStream()
            for (index, connection) in connections.enumerated() { connection.onClose { continuation.yield(index) } }
            var iterator = closes.makeAsyncIterator()
            let closed = await iterator.next() ?? -1
            let others = connections.indices.filter { $0 != closed }.map { connections[$0] }
            let othersOpen = others.allSatisfy { $0.isActive }
            #expect(othersOpen, "a connection closed only when the others did: no cap")
            for connection in others { await connection.close() }
            // Once the server has seen them close, requests are served again (bounded probes, no clock).
            var served = false
            for _ in 0 ..< 200 where !served {
                served = (try? await server.client.get("/healthz"))?.status == 200
                if !served { await Task.yield() }
            }
            #expect(served)
        }
    }

    @Test("the cap counts an IPv6 peer by its /64, as the rate limit does: a host rotating addresses in its network counts once; other networks and IPv4 peers apart")
    func ipv6NetworkCap() async throws {
        let limiter = ConnectionLimiter(limit: 2)
        func connect(_ address: String) async throws -> EmbeddedChannel {
            let channel = EmbeddedChannel(handler: limiter.handler())
            try await channel.connect(to: try SocketAddress(ipAddress: address, port: 40000)).get()
            return channel
        }
        let first = try await connect("2001:db8:1:2::1")
        let second = try await connect("2001:db8:1:2::ffff:2")
        let third = try await connect("2001:db8:1:2:aaaa::3")
        #expect(first.isActive && second.isActive)
        #expect(!third.isActive, "a third address of the same /64 was admitted")
        let otherNetwork = try await connect("2001:db8:1:3::1")
        let ipv4 = try await connect("192.0.2.1")
        #expect(otherNetwork.isActive && ipv4.isActive)
        #expect(limiter.count(clientAddress(try SocketAddress(ipAddress: "2001:db8:1:2::9", port: 1))) == 2)
    }
}
