import Foundation
import Logging
import Mdoc
import MdocTesting
import MdocTestingServer
import MdocTrust
import RevocationFetch
import Synchronization
import Testing
import TestSupport
import Verifier

/// Where the fetcher may connect: public addresses only, unless the operator allows a name or network; checked on the
/// address a name resolves to and on every redirect, before anything is sent.
@Suite("Fetch destinations")
struct FetchDestinationTests {
    @Test("public and non-public addresses", arguments: [
        ("8.8.8.8", true), ("1.1.1.1", true), ("2606:4700:4700::1111", true),
        ("127.0.0.1", false), ("127.255.0.9", false), ("10.1.2.3", false), ("172.16.0.1", false), ("172.31.255.255", false),
        ("172.32.0.1", true), ("192.168.1.1", false), ("169.254.169.254", false), ("100.64.0.1", false), ("0.0.0.0", false),
        ("224.0.0.1", false), ("255.255.255.255", false), ("240.0.0.1", false), ("192.0.2.5", false), ("198.51.100.7", false),
        ("::1", false), ("::", false), ("fe80::1", false), ("fc00::1", false), ("fd12:3456::1", false), ("ff02::1", false),
        ("::ffff:127.0.0.1", false), ("::ffff:8.8.8.8", true), ("64:ff9b::a9fe:a9fe", false), ("2001:db8::1", false),
    ])
    func publicAddresses(address: String, isPublic: Bool) throws {
        let destination = try #require(FetchDestination(address))
        #expect(destination.host == nil)
        let bytes = try #require(Self.bytes(address))
        #expect(FetchDestination.isPublic(bytes) == isPublic, "\(address)")
    }

    @Test("allow entries: names, addresses and CIDR networks parse; anything else is refused")
    func parsing() {
        #expect(FetchDestination("Status.Internal")?.host == "status.internal")
        #expect(FetchDestination("10.0.0.0/8")?.description == "10.0.0.0/8")
        #expect(FetchDestination("127.0.0.1")?.description == "127.0.0.1/32")
        #expect(FetchDestination("fd00::/8")?.description == "fd00::/8")
        for bad in ["", " ", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/x", "fd00::/129", "a/b/c", "http://x", "host name", "x_y.example"] {
            #expect(FetchDestination(bad) == nil, "\(bad)")
        }
    }

    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// A status URI on loopback, by address and by name, and a redirect to a second loopback address.
    static func verify(uri: String, allow: [String], server: RevocationListServer, log: CapturedLogs, redirect: (String, String)? = nil)
        async throws -> VerificationReport {
        let pki = try TestPKI(seed: 43, at: RevocationFetchTests.time)
        var options = SimulationOptions(time: RevocationFetchTests.time)
        options.statusList = .init(uri: uri, index: 17)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(RevocationFetchTests.transcript), options: options)
        server.publish(response.revocation, crlPath: "/crl")
        if let (path, location) = redirect { server.publish(.redirect(location), at: path) }
        var settings = FetchSettings()
        settings.allowedDestinations = allow.compactMap(FetchDestination.init)
        let fetcher = RevocationFetcher(settings: settings, now: { RevocationFetchTests.time }, logger: log.logger)
        defer { Task { await fetcher.shutdown() } }
        let files = try StaticRevocationSource(crls: [RevocationMaterial(response.revocation.crl, origin: "file iaca.crl")])
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: .hard, revocationSource: fetcher.source(files: files))
        return await fetcher.resolving { lookups in
            DeviceResponseVerifier(configuration: configuration)
                .verify(deviceResponse: response.bytes, transcript: RevocationFetchTests.transcript, at: RevocationFetchTests.time,
                        noting: lookups)
        }
    }

    @Test("loopback, a name resolving to loopback, link-local metadata and a redirect to a non-allowed address are refused before any request; an allowed one is fetched")
    func refusedDestinations() async throws {
        let server = try await RevocationListServer.start()
        let loopback = server.url("/lists/1")
        let byName = loopback.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let hop = ("/lists/hop", loopback.replacingOccurrences(of: "127.0.0.1", with: "127.0.0.2"))
        let cases: [(uri: String, allow: [String], refusedAddress: String)] = [
            (loopback, [], "127.0.0.1"),
            (byName, [], "localhost resolved to"),
            ("http://169.254.169.254/latest/meta-data/", [], "169.254.169.254"),
            ("http://[::1]:1/lists/1", ["127.0.0.1"], "::1"),
            (server.url("/lists/hop"), ["127.0.0.1/32"], "127.0.0.2"),
        ]
        for (uri, allow, address) in cases {
            let log = CapturedLogs()
            let report = try await Self.verify(uri: uri, allow: allow, server: server, log: log,
                                               redirect: uri.hasSuffix("/lists/hop") ? hop : nil)
            #expect(report.errors.map(\.code) == [.revocationUnknown], "\(uri)")
            let detail = report.checks.first { $0.id == .revocationStatus }?.detail ?? ""
            #expect(detail.contains("failed: refused destination"), "\(uri): \(detail)")
            #expect(!detail.contains(address) || uri.contains(address), "the resolved address stays in the log: \(detail)")
            #expect(log.messages.contains { $0.contains("refused destination") && $0.contains(address) }, "\(uri): \(log.messages)")
        }
        #expect(server.requests("/lists/1") == 0)
        #expect(server.requests("/lists/hop") == 1)

        for allow in [["127.0.0.1"], ["127.0.0.0/8"], ["localhost"]] {
            let report = try await Self.verify(uri: allow == ["localhost"] ? byName : loopback, allow: allow, server: server, log: CapturedLogs())
            #expect(report.verified, "\(allow): \(report.errors)")
        }
        await server.stop()
    }
}
