import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTestingServer
import MdocTrust
import RevocationFetch
import Synchronization
import Testing
import TestSupport
import Verifier

/// Status lists and CRLs fetched from the kit's loopback list server: every revocation fault through fetched lists,
/// soft and hard with the server down or slow, one fetch per URL under concurrency, cache lifetimes and refresh,
/// and the bounds on what a fetch reads.
@Suite("Revocation fetching")
struct RevocationFetchTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("RevocationFetchTests")]))

    /// A clock the tests move.
    final class TestClock: Sendable {
        private let current = Mutex(RevocationFetchTests.time)
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    /// A simulated mDL whose MSO names `server`'s `/lists/<name>` and whose document signer names `/crl/<name>`;
    /// the lists are published there unless `publish` is false.
    static func simulate(_ server: RevocationListServer, name: String, faults: [Fault] = [], publish: Bool = true) throws
        -> (TestPKI, SimulatedResponse) {
        let pki = try TestPKI(seed: 43, at: time)
        var options = SimulationOptions(time: time, faults: faults)
        options.statusList = .init(uri: server.url("/lists/\(name)"), index: 17)
        options.crlDistributionPoint = server.url("/crl/\(name)")
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        if publish { server.publish(response.revocation, crlPath: "/crl/\(name)") }
        return (pki, response)
    }

    static func fetcher(clock: TestClock = TestClock(), crls: Bool = true, log: CapturedLogs? = nil,
                        configure: (inout FetchSettings) -> Void = { _ in }) -> RevocationFetcher {
        var settings = FetchSettings()
        settings.crlDistributionPoints = crls
        settings.allowedDestinations = [FetchDestination("127.0.0.1")!]  // the kit's list server is on loopback
        configure(&settings)
        guard let log else { return RevocationFetcher(settings: settings, now: { clock.now }) }
        return RevocationFetcher(settings: settings, now: { clock.now }, logger: log.logger)
    }

    static func verify(_ response: SimulatedResponse, pki: TestPKI, fetcher: RevocationFetcher,
                       policy: RevocationPolicy = .hard) async -> VerificationReport {
        // Without distribution point fetching, the kit's CRL comes as a file.
        let files = fetcher.settings.crlDistributionPoints ? nil
            : try? StaticRevocationSource(crls: [RevocationMaterial(response.revocation.crl, origin: "file iaca.crl")])
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: policy, revocationSource: fetcher.source(files: files))
        let verifier = DeviceResponseVerifier(configuration: configuration)
        return await fetcher.resolving { lookups in
            verifier.verify(deviceResponse: response.bytes, transcript: transcript, at: time, noting: lookups)
        }
    }

    static func line(_ report: VerificationReport, _ id: CheckID) -> CheckResult? { report.checks.first { $0.id == id } }

    static let revocationFaults: [Fault] = [
        .documentSignerRevoked, .statusRevoked, .statusSuspended, .statusListExpired, .statusListUntrusted,
        .statusListSubMismatch, .statusIndexOutOfRange,
    ]

    @Test("every revocation fault gives its code with the CRL and the status list fetched from loopback; a clean list verifies")
    func faultsThroughFetchedLists() async throws {
        let server = try await RevocationListServer.start()
        let fetcher = Self.fetcher()
        for fault in [Fault?.none] + Self.revocationFaults.map(Optional.some) {
            let name = fault?.name ?? "clean"
            let (pki, response) = try Self.simulate(server, name: name, faults: fault.map { [$0] } ?? [])
            let report = await Self.verify(response, pki: pki, fetcher: fetcher)
            let expected = fault?.expectedCode(format: .deviceResponse)
            #expect(report.errors.map(\.code) == (expected.map { [$0] } ?? []), "\(name): \(report.errors)")
            #expect(server.requests("/lists/\(name)") == 1, "\(name)")
            #expect(server.requests("/crl/\(name)") == 1, "\(name)")
            if fault == nil {
                let status = try #require(Self.line(report, .revocationStatus))
                #expect(status.status == .pass && status.detail.contains(server.url("/lists/clean")), "\(status.detail)")
                #expect(Self.line(report, .revocationCertificate)?.detail.contains(server.url("/crl/clean")) == true)
            }
        }
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("a fetch finishes the verification that noted it: the response is opened once, and the report is the one a verification on the warm cache gives")
    func finishedNotRunTwice() async throws {
        let server = try await RevocationListServer.start()
        let fetcher = Self.fetcher()
        // The last case: a revoked signer of an expired MSO. Only the CRL is noted (the status reference of a failed
        // document is not followed); finishing must name both failures in check order, as a warm run does.
        let combined: [Fault] = [.documentSignerRevoked, .msoExpired]
        for faults in [[]] + Self.revocationFaults.map { [$0] } + [combined] {
            let fault = faults.count == 1 ? faults[0] : nil
            let name = "once-" + (faults.isEmpty ? "clean" : faults.map(\.name).joined(separator: "+"))
            let (pki, response) = try Self.simulate(server, name: name, faults: faults)
            let opened = PipelineInspection()
            let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(
                trustStore: pki.trustStore, revocation: .hard, revocationSource: fetcher.source())).inspecting(opened)
            func verify() async -> VerificationReport {
                await fetcher.resolving { verifier.verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Self.time, noting: $0) }
            }
            let finished = await verify()
            #expect(opened.deviceResponses.count == 1, "\(name): the response was opened \(opened.deviceResponses.count) times")
            #expect(server.requests("/lists/\(name)") + server.requests("/crl/\(name)") == (faults == combined ? 1 : 2), "\(name)")
            if faults != combined {
                let expected = fault?.expectedCode(format: .deviceResponse)
                #expect(finished.errors.map(\.code) == (expected.map { [$0] } ?? []), "\(name): \(finished.errors)")
            }

            let warm = await verify()
            // An expired list is past its lifetime as soon as it is fetched, so the next verification fetches it again.
            let refetched = fault?.name == Fault.statusListExpired.name ? 1 : 0
            #expect(opened.deviceResponses.count == 2 && server.requests("/lists/\(name)") == (faults == combined ? 0 : 1 + refetched),
                    "\(name): the warm run fetched")
            #expect(finished.checks == warm.checks, "\(name)")
            #expect(finished.errors.map(\.message) == warm.errors.map(\.message), "\(name)")
            #expect(finished.documents.map(\.docType) == warm.documents.map(\.docType), "\(name)")
            #expect(finished.documents.count == (faults.isEmpty ? 1 : 0), "\(name): documents released")
            if faults == combined {
                let status = try #require(Self.line(finished, .revocationStatus))
                #expect(status.detail.contains("revocation.certificate, mso.validity failed"), "\(status.detail)")
            }
            if fault?.name == Fault.documentSignerRevoked.name {
                // Looked up in the same round as the CRL, the status list is not followed once the CRL says revoked.
                let status = try #require(Self.line(finished, .revocationStatus))
                #expect(status.status == .skip && status.detail.contains("revocation.certificate failed"), "\(status.detail)")
            }
        }
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("the record a verification is kept in is freed: finished once, or never finished; what it kept goes with it")
    func recordFreed() async throws {
        let server = try await RevocationListServer.start()
        let fetcher = Self.fetcher()
        let (pki, response) = try Self.simulate(server, name: "freed")
        let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(
            trustStore: pki.trustStore, revocation: .hard, revocationSource: fetcher.source()))
        func verify(_ lookups: RevocationLookups) -> VerificationReport {
            verifier.verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Self.time, noting: lookups)
        }
        weak var abandoned: RevocationLookups?
        do {
            let lookups = RevocationLookups()
            abandoned = lookups
            #expect(verify(lookups).errors.map(\.code) == [.revocationUnknown, .revocationUnknown])
            #expect(lookups.wants.count == 2)
        }
        #expect(abandoned == nil, "a verification left unfinished keeps its record alive")

        // Finishing is once: the record lets go of the verification.
        let once = RevocationLookups()
        _ = verify(once)
        #expect(once.finished(as: VerificationReport.self)?.errors.map(\.code) == [.revocationUnknown, .revocationUnknown])
        #expect(once.finished(as: VerificationReport.self) == nil)

        weak var resolved: RevocationLookups?
        let report = await fetcher.resolving { lookups in
            resolved = lookups
            return verify(lookups)
        }
        #expect(report.verified, "\(report.errors)")
        #expect(resolved == nil, "a finished verification keeps its record alive")
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("list server down: soft verifies with a warning naming the failed fetch, hard rejects with revocation.unknown")
    func serverDown() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "down")
        await server.stop()
        let fetcher = Self.fetcher(crls: false)
        let soft = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .soft)
        #expect(soft.verified, "\(soft.errors)")
        let warning = try #require(Self.line(soft, .revocationStatus))
        #expect(warning.status == .warn && warning.detail.hasPrefix("status unknown: fetching \(server.url("/lists/down")) failed"),
                "\(warning.detail)")
        let hard = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .hard)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        #expect(fetcher.lists().map(\.state) == ["unreachable"])
        await fetcher.shutdown()
    }

    @Test("list server slower than the fetch timeout: unknown after the timeout (soft warns, hard rejects)")
    func serverSlow() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "slow")
        server.setDelay(.seconds(5))
        let fetcher = Self.fetcher(crls: false) { $0.timeout = .milliseconds(300) }
        let soft = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .soft)
        #expect(soft.verified)
        #expect(Self.line(soft, .revocationStatus)?.detail.contains("failed: unreachable") == true,
                "\(Self.line(soft, .revocationStatus)?.detail ?? "")")
        let fresh = Self.fetcher(crls: false) { $0.timeout = .milliseconds(300) }
        let hard = await Self.verify(response, pki: pki, fetcher: fresh, policy: .hard)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        await fetcher.shutdown()
        await fresh.shutdown()
        await server.stop()
    }

    @Test("200 concurrent verifications share one fetch per URL, and all verify")
    func singleFlight() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "busy")
        server.setDelay(.milliseconds(200))
        let fetcher = Self.fetcher()
        let verified = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask { await Self.verify(response, pki: pki, fetcher: fetcher).verified }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(verified == 200)
        #expect(server.requests("/lists/busy") == 1)
        #expect(server.requests("/crl/busy") == 1)
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("a list is reused within its ttl, refreshed in the background before it ends, and fetched again once past it")
    func cacheLifetime() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "ttl")
        let clock = TestClock()
        let fetcher = Self.fetcher(clock: clock, crls: false)
        _ = await Self.verify(response, pki: pki, fetcher: fetcher)
        clock.advance(600)
        let cached = await Self.verify(response, pki: pki, fetcher: fetcher)
        #expect(cached.verified)
        #expect(Self.line(cached, .revocationStatus)?.detail.contains("fetched 600 s ago") == true)
        #expect(server.requests("/lists/ttl") == 1)
        #expect(await fetcher.refreshDue() == 0)

        // The kit's token has ttl 3600: the last quarter of it is refreshed in the background.
        clock.advance(2_200)
        #expect(await fetcher.refreshDue() == 1)
        #expect(server.requests("/lists/ttl") == 2)
        #expect(fetcher.lists().map(\.state) == ["fresh"])

        // Past the ttl without a refresh: the next verification fetches first.
        clock.advance(3_700)
        let refetched = await Self.verify(response, pki: pki, fetcher: fetcher)
        #expect(refetched.verified)
        #expect(server.requests("/lists/ttl") == 3)
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("after a failed fetch, verifications within the backoff report the failure without fetching again")
    func failureBackoff() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "gone", publish: false)
        let clock = TestClock()
        let fetcher = Self.fetcher(clock: clock, crls: false)
        let first = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .soft)
        #expect(Self.line(first, .revocationStatus)?.detail.contains("failed: unreachable") == true)
        _ = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .soft)
        #expect(server.requests("/lists/gone") == 1)
        clock.advance(31)
        server.publish(response.revocation)
        let later = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .hard)
        #expect(later.verified, "\(later.errors)")
        #expect(server.requests("/lists/gone") == 2)
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("fetches are bounded: a body over the limit, too many redirects, a redirect away from http(s) are failures; the report names the category, the log the reason")
    func bounds() async throws {
        let server = try await RevocationListServer.start()
        let cases: [(String, (String) -> Void, category: String, logged: String)] = [
            ("big", { server.publish(.list([UInt8](repeating: 0, count: 4096), contentType: "application/statuslist+cwt"), at: $0) },
             "bad list", "larger than 1024 bytes"),
            ("loop", { path in
                for hop in 0..<5 { server.publish(.redirect(hop == 0 ? path + "-1" : path + "-\(hop + 1)"), at: hop == 0 ? path : path + "-\(hop)") }
            }, "unreachable", "more than 3 redirects"),
            ("file", { server.publish(.redirect("file:///etc/passwd"), at: $0) }, "refused destination", "is not an http or https URL"),
            ("garbage", { server.publish(.list([0x01, 0x02], contentType: "application/statuslist+cwt"), at: $0) }, "bad list", "not a status token"),
            ("missing", { _ in }, "unreachable", "HTTP 404"),
        ]
        for (name, setUp, category, logged) in cases {
            let (pki, response) = try Self.simulate(server, name: name, publish: false)
            setUp("/lists/\(name)")
            let log = CapturedLogs()
            let fetcher = Self.fetcher(crls: false, log: log) { $0.maxBytes = 1024 }
            let report = await Self.verify(response, pki: pki, fetcher: fetcher, policy: .hard)
            #expect(report.errors.map(\.code) == [.revocationUnknown], "\(name)")
            let detail = Self.line(report, .revocationStatus)?.detail ?? ""
            #expect(detail.contains("failed: \(category)"), "\(name): \(detail)")
            #expect(!detail.contains(logged), "\(name): the reason stays in the log")
            #expect(log.messages.contains { $0.contains(logged) && $0.contains(category) }, "\(name): \(log.messages)")
            #expect(fetcher.lists().map(\.error) == [category])
            await fetcher.shutdown()
        }
        await server.stop()
    }

    @Test("a fetched token issued before the cached one never replaces it; a ttl of 0 is reused for the 30 s floor")
    func olderTokenAndTTLFloor() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "iat")
        let clock = TestClock()
        let log = CapturedLogs()
        let fetcher = Self.fetcher(clock: clock, crls: false, log: log)
        #expect(await Self.verify(response, pki: pki, fetcher: fetcher).verified)

        // An older, genuinely signed list that says "revoked": served by the host, refused by the cache.
        let uri = server.url("/lists/iat")
        var older = StatusListTokenBuilder(uri: uri, issuedAt: Self.time - 7_200, expires: Self.time + 86_400)
        older.statuses[17] = 1
        let signer = try pki.issueStatusListSigner(at: Self.time)
        server.publish(.list(try older.sign(chain: [signer.certificate], key: signer.key), contentType: "application/statuslist+cwt"),
                       at: "/lists/iat")
        await fetcher.fetch(ListKey(.statusToken, uri))
        #expect(server.requests("/lists/iat") == 2)
        let after = await Self.verify(response, pki: pki, fetcher: fetcher)
        #expect(after.verified, "\(after.errors)")
        #expect(log.messages.contains { $0.contains("before the cached copy") }, "\(log.messages)")

        // A token whose signature does not verify (a forgery with a late iat) is never cached, so it cannot make the
        // real list look "older"; nor is one issued in the future.
        var forged = StatusListTokenBuilder(uri: uri, issuedAt: Self.time + 60, expires: Self.time + 86_400)
        forged.statuses[17] = 1
        let stranger = try TestPKI(seed: 4_242, at: Self.time).issueStatusListSigner(at: Self.time)
        // The issuer's own signer certificate in x5chain, signed with another key.
        let signed = try forged.sign(chain: [signer.certificate], key: stranger.key)
        var future = StatusListTokenBuilder(uri: uri, issuedAt: Self.time + 3_600, expires: Self.time + 86_400)
        future.statuses[17] = 1
        for bytes in [signed, try future.sign(chain: [signer.certificate], key: signer.key)] {
            server.publish(.list(bytes, contentType: "application/statuslist+cwt"), at: "/lists/iat")
            await fetcher.fetch(ListKey(.statusToken, uri))
            let report = await Self.verify(response, pki: pki, fetcher: fetcher)
            #expect(report.verified, "\(report.errors) \(log.messages)")
        }
        #expect(log.messages.contains { $0.contains("verifies its signature") }, "\(log.messages)")
        #expect(log.messages.contains { $0.contains("is in the future") }, "\(log.messages)")

        // ttl 0: reused for the floor, fetched again after it.
        var zero = StatusListTokenBuilder(uri: server.url("/lists/zero"), issuedAt: Self.time, expires: Self.time + 86_400)
        zero.timeToLive = 0
        server.publish(.list(try zero.sign(chain: [signer.certificate], key: signer.key), contentType: "application/statuslist+cwt"),
                       at: "/lists/zero")
        let key = ListKey(.statusToken, server.url("/lists/zero"))
        await fetcher.fetch(key)
        clock.advance(20)
        #expect(fetcher.lists().first { $0.key == key }?.state == "fresh")
        clock.advance(15)
        #expect(fetcher.lists().first { $0.key == key }?.state == "stale")
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("the cache is bounded in bytes: past maxCachedBytes the least recently used lists go")
    func byteBound() async throws {
        let server = try await RevocationListServer.start()
        let clock = TestClock()
        let fetcher = Self.fetcher(clock: clock, crls: false) { $0.maxCachedBytes = 1_200 }
        let pki = try TestPKI(seed: 43, at: Self.time)
        let signer = try pki.issueStatusListSigner(at: Self.time)
        for name in ["a", "b", "c"] {
            let builder = StatusListTokenBuilder(uri: server.url("/lists/\(name)"), issuedAt: Self.time, expires: Self.time + 86_400)
            server.publish(.list(try builder.sign(chain: [signer.certificate], key: signer.key), contentType: "application/statuslist+cwt"),
                           at: "/lists/\(name)")
            await fetcher.fetch(ListKey(.statusToken, server.url("/lists/\(name)")))
            clock.advance(1)
        }
        // Each token with its signer certificate and inflated list (1024 two-bit entries: 256 bytes) takes 700–1,000
        // bytes: only the newest fits.
        #expect(fetcher.lists().map(\.key.uri) == [server.url("/lists/c")])
        await fetcher.shutdown()
        await server.stop()
    }

    @Test("a status list given as a file wins over fetching; a forged MSO is never fetched")
    func filesFirstAndNoUntrustedFetch() async throws {
        let server = try await RevocationListServer.start()
        let (pki, response) = try Self.simulate(server, name: "file", publish: false)
        let fetcher = Self.fetcher(crls: false)
        let files = try StaticRevocationSource(crls: [RevocationMaterial(response.revocation.crl, origin: "file iaca.crl")],
                                               tokens: response.revocation.tokens.values.map { RevocationMaterial($0, origin: "file list.cwt") })
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: .hard,
                                                  revocationSource: fetcher.source(files: files))
        let report = await fetcher.resolving { lookups in
            DeviceResponseVerifier(configuration: configuration).verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Self.time,
                                                                        noting: lookups)
        }
        #expect(Self.line(report, .revocationStatus)?.detail.contains("file list.cwt") == true)
        #expect(server.requests("/lists/file") == 0)

        let (_, forged) = try Self.simulate(server, name: "forged", faults: [.issuerSignatureCorrupted])
        let rejected = await Self.verify(forged, pki: pki, fetcher: fetcher)
        #expect(rejected.errors.map(\.code) == [.issuerSignatureInvalid])
        #expect(server.requests("/lists/forged") == 0)
        await fetcher.shutdown()
        await server.stop()
    }
}
