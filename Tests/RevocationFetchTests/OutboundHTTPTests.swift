import MdocTestingServer
import RevocationFetch
import Testing

/// The product's one outbound HTTP client, against a loopback server: what each policy lets through, what the answer
/// carries, and what is refused before anything is sent.
@Suite("OutboundHTTP: the one outbound client (lists, webhooks, conformance targets)")
struct OutboundHTTPTests {
    static func request(_ url: String, maxBytes: Int = 1_000) -> OutboundHTTP.Request {
        OutboundHTTP.Request(url, timeout: .seconds(5), maxBytes: maxBytes)
    }

    @Test("loopback: refused by the default policy before a connection, reached with anyAddress or an allowed network")
    func destinations() async throws {
        let server = try await RevocationListServer.start()
        server.publish(.list(Array("hello".utf8), contentType: "text/plain"), at: "/x")
        let outcome = OutboundHTTP.perform(Self.request(server.url("/x")), policy: OutboundPolicy(allow: [], caFile: nil))
        guard case let .refused(host, address) = outcome else { Issue.record("\(outcome)"); return }
        #expect(host == "127.0.0.1" && address == "127.0.0.1")
        #expect(server.requests("/x") == 0)
        for policy in [OutboundPolicy.anyAddress, OutboundPolicy(allow: [try #require(FetchDestination("127.0.0.0/8"))], caFile: nil)] {
            guard case .answered(let answer) = OutboundHTTP.perform(Self.request(server.url("/x")), policy: policy) else {
                Issue.record("not answered")
                continue
            }
            #expect(answer.status == 200 && answer.body == Array("hello".utf8) && answer.location == nil)
        }
        await server.stop()
    }

    @Test("a body past maxBytes is tooLarge, or answered when it is discarded; a 3xx is the answer, with its Location; PUT")
    func answers() async throws {
        let server = try await RevocationListServer.start()
        server.publish(.list([UInt8](repeating: 0x41, count: 2_000), contentType: "text/plain"), at: "/big")
        server.publish(.redirect("/elsewhere"), at: "/moved")
        guard case .tooLarge = OutboundHTTP.perform(Self.request(server.url("/big")), policy: .anyAddress) else {
            Issue.record("a 2,000-byte body passed a 1,000-byte limit")
            return
        }
        var discarded = Self.request(server.url("/big"))
        (discarded.method, discarded.body, discarded.discardBody) = ("POST", Array("{}".utf8), true)
        guard case .answered(let posted) = OutboundHTTP.perform(discarded, policy: .anyAddress) else { Issue.record("not answered"); return }
        #expect(posted.status == 200 && posted.body.isEmpty)
        guard case .answered(let moved) = OutboundHTTP.perform(Self.request(server.url("/moved")), policy: .anyAddress) else {
            Issue.record("not answered")
            return
        }
        #expect(moved.status == 302 && moved.location == server.url("/elsewhere"))
        #expect(server.requests("/elsewhere") == 0)
        // A Duration past what libcurl takes is clamped, not trapped on.
        var patient = Self.request(server.url("/moved"))
        patient.timeout = .seconds(Int64.max)
        guard case .answered = OutboundHTTP.perform(patient, policy: .anyAddress) else { Issue.record("not answered"); return }
        var put = Self.request(server.url("/big"), maxBytes: 4_000)
        (put.method, put.body) = ("PUT", [1, 2, 3])
        guard case .answered(let answer) = OutboundHTTP.perform(put, policy: .anyAddress) else { Issue.record("not answered"); return }
        #expect(answer.status == 200 && answer.body.count == 2_000)
        await server.stop()
    }

    @Test("a header with a line break, a NUL or a colon in its name is refused before anything is sent", arguments: [
        ("X-Test", "a\r\nInjected: 1"), ("X-Test", "a\nb"), ("X-Test", "a\u{0}b"), ("X-Te\rst", "a"), ("X:Test", "a"),
    ])
    func headerInjection(name: String, value: String) async throws {
        let server = try await RevocationListServer.start()
        server.publish(.status(204), at: "/h")
        var request = Self.request(server.url("/h"))
        request.headers = [(name, value)]
        guard case .failed(let why, timedOut: false) = OutboundHTTP.perform(request, policy: .anyAddress) else {
            Issue.record("sent")
            await server.stop()
            return
        }
        #expect(why.contains("line break"))
        #expect(server.requests("/h") == 0)
        await server.stop()
    }
}
