import LoopbackClient
import Foundation
import Testing
import VerifyServer
#if canImport(Glibc)
import Glibc
#endif

/// `POST /v1/requests` is bounded: a ceiling on what one request stores, and caps on the requests outstanding in total
/// and per client address (429 with `Retry-After`).
@Suite("verify-server request quotas")
struct RequestQuotaTests {
    static func configuration(total: Int, perClient: Int) -> ServerConfiguration {
        var configuration = AppleSample.configuration()
        configuration.maxOutstandingRequests = total
        configuration.maxOutstandingRequestsPerClient = perClient
        return configuration
    }

    static func expectTooMany(_ answer: LoopbackHTTPClient.Response, retryAfter: Int, naming key: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(answer.status == 429, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(try errorCode(answer) == "requests.too_many", sourceLocation: sourceLocation)
        #expect(answer.header("Retry-After") == String(retryAfter), "\(answer.headers)", sourceLocation: sourceLocation)
        #expect(answer.text.contains("(\(key))"), "\(answer.text)", sourceLocation: sourceLocation)
    }

    @Test("per client: the request past maxOutstandingRequestsPerClient is 429 with Retry-After until the oldest expires; a verify call or expiry frees a slot")
    func perClient() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(Self.configuration(total: 100, perClient: 3), clock: clock) { server in
            var ids: [String] = []
            for _ in 0 ..< 3 {
                let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
                #expect(created.status == 201, "\(created.text)")
                ids.append(try #require(try jsonObject(created)["requestId"] as? String))
                clock.advance(by: 100)
            }
            // The oldest expires 300 s after its creation, 300 s ago: at once, so it no longer counts.
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            clock.advance(by: 0.5)
            // Outstanding: created at 100, 200 and 300 (now 300.5): the oldest expires in 99.5 s, announced as 100.
            try Self.expectTooMany(try await server.client.post("/v1/requests", json: AppleSample.createBody),
                                   retryAfter: 100, naming: "maxOutstandingRequestsPerClient")

            // A verify call consumes a request whatever its outcome: its slot is free again.
            let verified = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(ids[1], response: "AAAA"))
            #expect(verified.status == 422)
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
            try Self.expectTooMany(try await server.client.post("/v1/requests", json: AppleSample.createBody),
                                   retryAfter: 200, naming: "maxOutstandingRequestsPerClient")

            // Expiry frees them all.
            clock.advance(by: 300)
            for _ in 0 ..< 3 { #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201) }
        }
    }

    @Test("in total: past maxOutstandingRequests every client gets 429; each client address has its own per-client count")
    func manyClients() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(Self.configuration(total: 5, perClient: 2), clock: clock) { server in
            let port = server.client.port
            func create(from address: String) async throws -> RawAnswer {
                try await RawAnswer.post("/v1/requests", json: AppleSample.createBody, from: address, port: port)
            }
            #expect(try await create(from: "127.0.0.2").status == 201)
            #expect(try await create(from: "127.0.0.2").status == 201)
            let third = try await create(from: "127.0.0.2")
            #expect(third.status == 429 && third.body.contains("maxOutstandingRequestsPerClient"), "\(third.body)")
            #expect(third.retryAfter == 300)
            #expect(try await create(from: "127.0.0.3").status == 201)
            #expect(try await create(from: "127.0.0.3").status == 201)
            clock.advance(by: 10)
            #expect(try await create(from: "127.0.0.4").status == 201)
            let full = try await create(from: "127.0.0.5")
            #expect(full.status == 429 && full.body.contains("(maxOutstandingRequests)"), "\(full.body)")
            #expect(full.body.contains("requests.too_many"))
            #expect(full.retryAfter == 290, "the oldest request of all expires in 290 s")
            clock.advance(by: 290)
            #expect(try await create(from: "127.0.0.5").status == 201)
        }
    }

    @Test("over IPv6 the cap holds too (a client is its /64 network)", .enabled(if: RawAnswer.hasIPv6Loopback, "no IPv6 loopback"))
    func ipv6() async throws {
        var configuration = Self.configuration(total: 100, perClient: 2)
        configuration.host = "::1"
        try await ServerFixture.withServer(configuration) { server in
            let port = try await server.app.port()
            for _ in 0 ..< 2 {
                #expect(try await RawAnswer.post("/v1/requests", json: AppleSample.createBody, from: "::1", port: port).status == 201)
            }
            let refused = try await RawAnswer.post("/v1/requests", json: AppleSample.createBody, from: "::1", port: port)
            #expect(refused.status == 429 && refused.body.contains("maxOutstandingRequestsPerClient"), "\(refused.body)")
        }
    }

    @Test("many requests from one client: exactly the cap is admitted, the rest 429, nothing counted twice")
    func concurrentCreates() async throws {
        try await ServerFixture.withServer(Self.configuration(total: 1000, perClient: 20)) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { tasks in
                for _ in 0 ..< 60 { tasks.addTask { try await server.client.post("/v1/requests", json: AppleSample.createBody).status } }
                var statuses: [Int] = []
                for try await status in tasks { statuses.append(status) }
                return statuses
            }
            #expect(statuses.filter { $0 == 201 }.count == 20, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 40)
        }
    }

    @Test("a request refused before it is stored (a bad origin, a failed insert) does not count")
    func refusedNotCounted() async throws {
        try await ServerFixture.withServer(Self.configuration(total: 100, perClient: 1)) { (server: RunningServer) async throws in
            let badOrigin = #"{"format":"annex-c","origin":"ftp://x","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
            for _ in 0 ..< 3 { #expect(try await server.client.post("/v1/requests", json: badOrigin).status == 400) }
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 201)
        }
        try await ServerFixture.withServer(Self.configuration(total: 100, perClient: 1), store: StallingStore(),
                                           hooks: StoreOutageTests.hooks) { (server: RunningServer) async throws in
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 503)
            #expect(try await server.client.post("/v1/requests", json: AppleSample.createBody).status == 503, "the failed insert still counted")
        }
    }

    // MARK: What one request stores

    /// A create body for one mDL whose namespace names `count` elements of `length` characters.
    static func createBody(elements count: Int, length: Int) -> String {
        let elements = (0 ..< count).map { index in
            let name = String(format: "e%05d", index) + String(repeating: "x", count: length - 6)
            return #""\#(name)":false"#
        }
        return #"{"format":"apple-app","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"#
            + elements.joined(separator: ",") + "}}}]}"
    }

    @Test("the documents may take 16384 bytes as stored: at the ceiling 201, one byte over 413 naming it; the largest policy the element limits allow is refused")
    func policyCeiling() async throws {
        // Stored as {"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{ELEMENTS}}}]}:
        // 74 bytes around the elements, each element `"NAME":false` plus a comma between two.
        let frame = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{}}}]}"#.utf8.count
        let count = 128
        let perElement = (16_384 - frame - (count - 1)) / count  // bytes of one `"NAME":false`
        let length = perElement - 8
        let remainder = 16_384 - frame - (count - 1) - perElement * count
        // Makes up the remainder with one longer element name.
        let body = Self.createBody(elements: count, length: length)
            .replacingOccurrences(of: #""e00000"#, with: #""e00000"# + String(repeating: "y", count: remainder))
        try await ServerFixture.withServer { server in
            let atCeiling = try await server.client.post("/v1/requests", json: body)
            #expect(atCeiling.status == 201, "\(atCeiling.text)")
            let over = try await server.client.post("/v1/requests", json: body.replacingOccurrences(of: #""e00001"#, with: #""e00001z"#))
            #expect(over.status == 413, "\(over.text)")
            #expect(try errorCode(over) == "input.malformed")
            #expect(over.text.contains("16385 bytes") && over.text.contains("16384-byte ceiling"), "\(over.text)")

            // Within RequestPolicyLimits (256 elements of 256 characters) and the body limit, but about 70 KB stored.
            let largest = try await server.client.post("/v1/requests", json: Self.createBody(elements: 256, length: 256))
            #expect(largest.status == 413)
        }
    }

    @Test("an origin longer than 1024 bytes is 400 before any key is made; at 1024 it is judged as an origin")
    func originCeiling() async throws {
        @Sendable func body(_ origin: String) -> String {
            #"{"format":"annex-c","origin":""# + origin
                + #"","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
        }
        let atCeiling = "https://" + String(repeating: "a", count: 1024 - 8 - 8) + ".example"
        try await ServerFixture.withServer { server in
            #expect(try await server.client.post("/v1/requests", json: body(atCeiling)).status == 201)
            let over = try await server.client.post("/v1/requests", json: body(atCeiling + "x"))
            #expect(over.status == 400)
            #expect(try errorCode(over) == "input.malformed")
            #expect(over.text.contains("1024 bytes; it has 1025 bytes"), "\(over.text)")
        }
    }

    // MARK: Configuration

    @Test("the caps: defaults, file and environment values; absent, wrong-type, negative, zero and huge values refused one line each")
    func configuration() throws {
        let base = ["VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t", "VERIFY_SERVER_DECRYPTION_KEYS": "/k.pem"]
        let defaults = try ConfigurationLoader.load(file: nil, environment: base)
        #expect(defaults.maxOutstandingRequests == 10_000 && defaults.maxOutstandingRequestsPerClient == 100)
        let set = try ConfigurationLoader.load(file: nil, environment: base.merging([
            "VERIFY_SERVER_MAX_OUTSTANDING_REQUESTS": "50", "VERIFY_SERVER_MAX_OUTSTANDING_REQUESTS_PER_CLIENT": "5",
        ]) { $1 })
        #expect(set.maxOutstandingRequests == 50 && set.maxOutstandingRequestsPerClient == 5)

        for (value, says) in [("0", "must be 1 to 10000000"), ("-3", "must be 1 to 10000000"), ("10000001", "must be 1 to 10000000"),
                              ("99999999999999999999", "must be an integer"), ("1e3", "must be an integer"), ("ten", "must be an integer"),
                              ("", "must be an integer")] {
            for key in ["MAX_OUTSTANDING_REQUESTS", "MAX_OUTSTANDING_REQUESTS_PER_CLIENT"] {
                let problems = ConfigurationTests.problems {
                    _ = try ConfigurationLoader.load(file: nil, environment: base.merging(["VERIFY_SERVER_" + key: value]) { $1 })
                }
                #expect(problems.count == 1 && problems.first?.contains(says) == true, "\(key)=\(value): \(problems)")
            }
        }
        try ConfigurationTests.withFolder { folder in
            let file = folder.appendingPathComponent("c.yaml").path
            try """
                merchantID: m
                teamID: t
                decryptionKeys: [/k.pem]
                maxOutstandingRequests: [1, 2]
                maxOutstandingRequestsPerClient: 2.5
                """.write(toFile: file, atomically: true, encoding: .utf8)
            let problems = ConfigurationTests.problems { _ = try ConfigurationLoader.load(file: file, environment: [:]) }
            #expect(problems.count == 2, "\(problems)")
            #expect(problems.contains { $0.contains("maxOutstandingRequests must be a single value") })
            #expect(problems.contains { $0.contains("maxOutstandingRequestsPerClient must be an integer") })
        }
    }
}

/// One HTTP/1.1 exchange over a plain socket bound to a chosen loopback source address (127.0.0.x), so the server sees
/// several client addresses.
struct RawAnswer {
    let status: Int
    let retryAfter: Int?
    let body: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the blocking exchange on its own thread, so no task of the shared pool waits on the socket.
    static func post(_ path: String, json: String, from source: String, port: Int) async throws -> RawAnswer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchange(path, json: json, from: source, port: port) })
            }
        }
    }

    private static func exchange(_ path: String, json: String, from source: String, port: Int) throws -> RawAnswer {
        let family = source.contains(":") ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(descriptor) }
        guard withAddress(source, port: 0, { bind(descriptor, $0, $1) }) == 0,
              withAddress(family == AF_INET6 ? "::1" : "127.0.0.1", port: port, { connect(descriptor, $0, $1) }) == 0
        else { throw Failure(description: "cannot connect from \(source)") }
        let request = "POST \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(json.utf8.count)\r\n\r\n" + json
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "send failed") }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0 ..< count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw Failure(description: "no HTTP answer: \(text)") }
        let lines = text[..<headEnd.lowerBound].split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let retryAfter = lines.dropFirst().first { $0.lowercased().hasPrefix("retry-after:") }
            .flatMap { Int($0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)) }
        return RawAnswer(status: status, retryAfter: retryAfter, body: String(text[headEnd.upperBound...]))
    }

    /// Calls `body` with the socket address of `text` (IPv4 or IPv6) and `port`.
    static func withAddress(_ text: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        if text.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, text, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, text, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Whether this machine has an IPv6 loopback address to listen on.
    static let hasIPv6Loopback: Bool = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withAddress("::1", port: 0) { bind(descriptor, $0, $1) } == 0
    }()
}
