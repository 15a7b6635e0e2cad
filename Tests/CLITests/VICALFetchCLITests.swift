import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTestingServer
import MdocTrust
import Testing
import TestSupport

/// `mdocverify trust vical fetch`: `trust vical import` on a list downloaded from the kit's loopback VICAL server, with
/// the same verification and rollback mark, and the fetcher's destination policy (issue 36, item 5).
@Suite("mdocverify trust vical fetch")
struct VICALFetchCLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z

    typealias Fixture = SignedListFixture<VICALBuilder>

    @Test("fetch imports the list as import does; a newer issue replaces it; an older one is vical.rollback unless --allow-rollback")
    func fetchAndRollback() async throws {
        let fixture = try await Fixture.vical(seed: 6, issuers: (63, 64), at: Self.time)
        do {
            try fixture.publish(2, [fixture.first, fixture.second])
            let first = try fixture.fetch()
            #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
            #expect(first.stdout.contains("imported 2 IACA certificate(s) from MdocTesting VICAL 2"))
            #expect(try fixture.manifest()["source"] as? String == fixture.lists.url)
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 2)

            try fixture.publish(3, [fixture.first])
            #expect(try fixture.fetch().status == 0)
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 3)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trust).filter { $0.hasSuffix(".pem") }.count == 1)

            try fixture.publish(1, [fixture.first, fixture.second])
            let rollback = try fixture.fetch()
            #expect(rollback.status == 1)
            #expect(rollback.stdout.contains("REJECTED VICAL — vical.rollback"), "\(rollback.stdout)")
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 3)
            let allowed = try fixture.fetch(["--fetch-allow", "127.0.0.1", "--allow-rollback"])
            #expect(allowed.status == 0, "\(allowed.stdout)")
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 1)
            #expect(try fixture.manifest()["highestIssueID"] as? Int == 3)
        } catch {
            await fixture.finish()
            throw error
        }
        await fixture.finish()
    }

    @Test("a bad signature, an oversized body, a loopback URL without --fetch-allow and a server that is down import nothing, saying why")
    func refusals() async throws {
        let fixture = try await Fixture.vical(seed: 6, issuers: (63, 64), at: Self.time)
        do {
            fixture.lists.publish(VICALServer.badSignature(try fixture.publish(4, [fixture.first])))
            let bad = try fixture.fetch()
            #expect(bad.status == 1)
            #expect(bad.stdout.contains("vical.signature_invalid"), "\(bad.stdout)")

            fixture.lists.publishOversized(17 << 20)
            let large = try fixture.fetch()
            #expect(large.status == 1)
            #expect(large.stdout.contains("the download failed (too_large)"), "\(large.stdout)")

            try fixture.publish(4, [fixture.first])
            let before = fixture.lists.requests
            let loopback = try fixture.fetch([])
            #expect(loopback.status == 1)
            #expect(loopback.stdout.contains("the download failed (refused_destination)"), "\(loopback.stdout)")
            #expect(loopback.stdout.contains("--fetch-allow"))
            #expect(fixture.lists.requests == before, "refused before any request reached the address")

            let url = fixture.lists.url
            await fixture.lists.stop()
            let down = try fixture.fetch(url: url)
            #expect(down.status == 1)
            #expect(down.stdout.contains("the download failed (unreachable)"), "\(down.stdout)")
            #expect(!FileManager.default.fileExists(atPath: fixture.trust), "nothing was imported")

            let usage = try fixture.fetch(url: "ftp://example.com/vical")
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("is not an http or https URL"))
        } catch {
            await fixture.finish()
            throw error
        }
        await fixture.finish()
    }
}

extension SignedListFixture where Builder == VICALBuilder {
    func fetch(_ extra: [String] = ["--fetch-allow", "127.0.0.1"], url: String? = nil) throws -> MdocVerifyCLI.Run {
        try MdocVerifyCLI.run(["trust", "vical", "fetch", "--url", url ?? lists.url, "--root", root, "--at", RFC3339.format(time), "--out", trust,
                               "--timeout", "5"] + extra)
    }
}
