import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTestingServer
import MdocTrust
import Testing
import TestSupport

/// `mdocverify trust lote fetch URL`: `trust lote import` on a list downloaded from the kit's loopback LoTE server, with
/// the same verification, docType map and rollback mark, and the fetcher's destination policy (issue 39, item 2).
@Suite("mdocverify trust lote fetch")
struct LoTEFetchCLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let mdlMap = "\(LoTEBuilder.mdlIssuance)=\(DocType.mDL)"

    typealias Fixture = SignedListFixture<LoTEBuilder>

    static func with(_ body: (Fixture) async throws -> Void) async throws {
        try await Fixture.lote(seed: 15, issuers: (73, 74), at: time).run(body)
    }

    @Test("fetch imports the list as import does; a newer sequence replaces it; an older one is lote.rollback unless --allow-rollback")
    func fetchAndRollback() async throws {
        try await Self.with { fixture in
            try fixture.publish(2, [fixture.first, fixture.second])
            let first = try fixture.fetch()
            #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
            #expect(first.stdout.contains("imported 2 certificate(s) from LoTE MdocTesting Scheme Operator"), "\(first.stdout)")
            #expect(try fixture.manifest()["source"] as? String == fixture.lists.url)
            #expect(try fixture.manifest()["sequenceNumber"] as? Int == 2)

            try fixture.publish(3, [fixture.first])
            #expect(try fixture.fetch().status == 0)
            #expect(try fixture.manifest()["sequenceNumber"] as? Int == 3)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trust).filter { $0.hasSuffix(".pem") }.count == 1)

            try fixture.publish(1, [fixture.first, fixture.second])
            let rollback = try fixture.fetch()
            #expect(rollback.status == 1)
            #expect(rollback.stdout.contains("REJECTED LoTE — lote.rollback"), "\(rollback.stdout)")
            #expect(try fixture.manifest()["sequenceNumber"] as? Int == 3)
            let allowed = try fixture.fetch(["--fetch-allow", "127.0.0.1", "--allow-rollback"])
            #expect(allowed.status == 0, "\(allowed.stdout)")
            #expect(try fixture.manifest()["sequenceNumber"] as? Int == 1)
            #expect(try fixture.manifest()["highestSequenceNumber"] as? Int == 3)
        }
    }

    @Test("a bad signature, another root's list, 17 MB, 503, a redirect to a private address, a loopback URL without --fetch-allow and a server that is down import nothing, saying why")
    func refusals() async throws {
        try await Self.with { fixture in
            fixture.lists.publish(LoTEServer.tampered(try fixture.publish(4, [fixture.first])))
            let bad = try fixture.fetch()
            #expect(bad.status == 1 && bad.stdout.contains("REJECTED LoTE — lote.signature_invalid"), "\(bad.stdout)")

            try fixture.publish(4, [fixture.first], by: try LoTEBuilder(seed: 16, at: Self.time))
            let stranger = try fixture.fetch()
            #expect(stranger.status == 1 && stranger.stdout.contains("lote.signer_untrusted"), "\(stranger.stdout)")

            fixture.lists.publishOversized(17 << 20)
            let large = try fixture.fetch()
            #expect(large.status == 1 && large.stdout.contains("the download failed (too_large)"), "\(large.stdout)")
            #expect(large.stdout.contains("which no LoTE is"), "\(large.stdout)")

            fixture.lists.fail(status: 503)
            let unavailable = try fixture.fetch()
            #expect(unavailable.status == 1 && unavailable.stdout.contains("the download failed (unreachable): HTTP 503"), "\(unavailable.stdout)")

            fixture.lists.redirect(to: "http://192.168.7.7/lote.jwt")
            let redirected = try fixture.fetch()
            #expect(redirected.status == 1 && redirected.stdout.contains("the download failed (refused_destination)"), "\(redirected.stdout)")

            try fixture.publish(4, [fixture.first])
            let before = fixture.lists.requests
            let loopback = try fixture.fetch([])
            #expect(loopback.status == 1 && loopback.stdout.contains("the download failed (refused_destination)"), "\(loopback.stdout)")
            #expect(loopback.stdout.contains("--fetch-allow"))
            #expect(fixture.lists.requests == before, "refused before any request reached the address")

            let url = fixture.lists.url
            await fixture.lists.stop()
            let down = try fixture.fetch(url: url)
            #expect(down.status == 1 && down.stdout.contains("the download failed (unreachable)"), "\(down.stdout)")
            #expect(!FileManager.default.fileExists(atPath: fixture.trust), "nothing was imported")
        }
    }

    @Test("a stale list is imported and said to be stale; --profile strict refuses it (lote.stale)")
    func stale() async throws {
        try await Self.with { fixture in
            try fixture.publish(2, [fixture.first], nextUpdate: Self.time - 3600)
            let strict = try fixture.fetch(["--fetch-allow", "127.0.0.1", "--profile", "strict"])
            #expect(strict.status == 1 && strict.stdout.contains("REJECTED LoTE — lote.stale"), "\(strict.stdout)")
            #expect(!FileManager.default.fileExists(atPath: fixture.trust))
            let imported = try fixture.fetch()
            #expect(imported.status == 0 && imported.stdout.contains("STALE since"), "\(imported.stdout)")
        }
    }

    @Test("usage: not an http(s) URL, no --doctype-map, no pinned root, a bad --timeout or --fetch-allow are exit 2 before any download")
    func usage() async throws {
        try await Self.with { fixture in
            try fixture.publish(1, [fixture.first])
            let ftp = try fixture.fetch(url: "ftp://example.com/lote")
            #expect(ftp.status == 2 && ftp.stderr.contains("is not an http or https URL"), "\(ftp.stderr)")
            let unmapped = try fixture.fetch(map: [])
            #expect(unmapped.status == 2 && unmapped.stderr.contains("give --doctype-map"), "\(unmapped.stderr)")
            let unpinned = try MdocVerifyCLI.run(["trust", "lote", "fetch", fixture.lists.url, "--doctype-map", Self.mdlMap, "--out", fixture.trust,
                                                  "--fetch-allow", "127.0.0.1"])
            #expect(unpinned.status == 2 && unpinned.stderr.contains("pin the LoTE's signer"), "\(unpinned.stderr)")
            let timeout = try fixture.fetch(["--fetch-allow", "127.0.0.1", "--timeout", "0"])
            #expect(timeout.status == 2 && timeout.stderr.contains("--timeout"), "\(timeout.stderr)")
            let badAllow = try fixture.fetch(["--fetch-allow", "not a host"])
            #expect(badAllow.status == 2 && badAllow.stderr.contains("--fetch-allow \"not a host\" is neither a host name nor an address or CIDR network"),
                    "\(badAllow.stderr)")
            #expect(fixture.lists.requests == 0)
        }
    }
}

extension SignedListFixture where Builder == LoTEBuilder {
    func fetch(_ extra: [String] = ["--fetch-allow", "127.0.0.1"], url: String? = nil,
               map: [String] = ["--doctype-map", LoTEFetchCLITests.mdlMap]) throws -> MdocVerifyCLI.Run {
        try MdocVerifyCLI.run(["trust", "lote", "fetch", url ?? lists.url, "--root", root, "--at", RFC3339.format(time), "--out", trust,
                               "--timeout", "5"] + map + extra)
    }
}

extension SignedListFixture {
    /// The manifest of the import in `trust`.
    func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: trust).appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
