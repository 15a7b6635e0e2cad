import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import MdocTestingServer
import Testing
import TestSupport

/// `mdocverify trust vical fetch`: `trust vical import` on a list downloaded from the kit's loopback VICAL server, with
/// the same verification and rollback mark, and the fetcher's destination policy (issue 36, item 5).
@Suite("mdocverify trust vical fetch")
struct VICALFetchCLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let mDL = ["org.iso.18013.5.1.mDL"]

    struct Fixture {
        let lists: VICALServer
        let issuerA: TestPKI
        let issuerB: TestPKI
        let folder: URL

        static func start() async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vical-fetch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let lists = try await VICALServer.start(builder: try VICALBuilder(seed: 6, at: VICALFetchCLITests.time))
            try Data(PEMText.certificate(lists.builder.root).utf8).write(to: folder.appendingPathComponent("root.pem"))
            return Fixture(lists: lists, issuerA: try TestPKI(seed: 63, at: VICALFetchCLITests.time),
                           issuerB: try TestPKI(seed: 64, at: VICALFetchCLITests.time), folder: folder)
        }

        var trust: String { folder.appendingPathComponent("trust").path }

        @discardableResult
        func publish(_ id: UInt64?, _ issuers: [TestPKI]) throws -> [UInt8] {
            try lists.publish(entries: issuers.map { .init($0.iaca, docTypes: VICALFetchCLITests.mDL) }, issueID: id,
                              date: VICALFetchCLITests.time - 86_400, nextUpdate: VICALFetchCLITests.time + 30 * 86_400)
        }

        func fetch(_ extra: [String] = ["--fetch-allow", "127.0.0.1"], url: String? = nil) throws -> MdocVerifyCLI.Run {
            try MdocVerifyCLI.run(["trust", "vical", "fetch", "--url", url ?? lists.url, "--root", folder.appendingPathComponent("root.pem").path,
                                   "--at", RFC3339.format(VICALFetchCLITests.time), "--out", trust, "--timeout", "5"] + extra)
        }

        func manifest() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: trust).appendingPathComponent("manifest.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        func finish() async {
            await lists.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("fetch imports the list as import does; a newer issue replaces it; an older one is vical.rollback unless --allow-rollback")
    func fetchAndRollback() async throws {
        let fixture = try await Fixture.start()
        do {
            try fixture.publish(2, [fixture.issuerA, fixture.issuerB])
            let first = try fixture.fetch()
            #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
            #expect(first.stdout.contains("imported 2 IACA certificate(s) from MdocTesting VICAL 2"))
            #expect(try fixture.manifest()["source"] as? String == fixture.lists.url)
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 2)

            try fixture.publish(3, [fixture.issuerA])
            #expect(try fixture.fetch().status == 0)
            #expect(try fixture.manifest()["vicalIssueID"] as? Int == 3)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trust).filter { $0.hasSuffix(".pem") }.count == 1)

            try fixture.publish(1, [fixture.issuerA, fixture.issuerB])
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
        let fixture = try await Fixture.start()
        do {
            fixture.lists.publish(VICALServer.badSignature(try fixture.publish(4, [fixture.issuerA])))
            let bad = try fixture.fetch()
            #expect(bad.status == 1)
            #expect(bad.stdout.contains("vical.signature_invalid"), "\(bad.stdout)")

            fixture.lists.publishOversized(17 << 20)
            let large = try fixture.fetch()
            #expect(large.status == 1)
            #expect(large.stdout.contains("the download failed (too_large)"), "\(large.stdout)")

            try fixture.publish(4, [fixture.issuerA])
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
