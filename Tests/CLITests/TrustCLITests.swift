import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Testing
import TestSupport
import Verifier

/// `mdocverify trust vical verify|import` and `trust list` with the real AAMVA VICAL.
@Suite("mdocverify trust")
struct TrustCLITests {
    static let vical = "TestVectors/trust/aamva-vical.cbor"
    static let root = "TestVectors/trust/aamva-dts-root-from-vical-x5chain.pem"
    static let at = "2025-08-05T21:00:00Z"

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-trust-\(UUID().uuidString)").path
    }

    @Test("verify: provider, issue ID, freshness and entries (JSON); another pinned root is vical.signer_untrusted, exit 1")
    func verify() throws {
        let run = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root", Self.root, "--at", Self.at, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["provider"] as? String == "AAMVA")
        #expect(object["vicalIssueID"] as? Int == 89782)
        #expect(object["freshness"] as? String == "fresh")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 13)
        #expect(entries.allSatisfy { ($0["spkiSHA256"] as? String)?.count == 64 && ($0["docTypes"] as? [String])?.isEmpty == false })

        let stale = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root", Self.root, "--at", "2025-12-01T00:00:00Z"])
        #expect(stale.status == 0 && stale.stdout.contains("STALE since 2025-08-06T20:47:21Z"))
        let strict = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root", Self.root,
                                            "--at", "2025-12-01T00:00:00Z", "--profile", "strict"])
        #expect(strict.status == 1 && strict.stdout.contains("vical.stale"))

        let wrong = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical,
                                           "--root", "TestVectors/trust/austroads-preproduction-dts-root.pem", "--at", Self.at])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("vical.signer_untrusted"))
    }

    @Test("import writes each IACA and a manifest; list shows them with their docType scope; a lower issue ID is refused")
    func importAndList() throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let fingerprint = Hex.encode(try Certificate(pemEncoded: VectorFiles.text(Self.root)).sha256Fingerprint)
        let imported = try MdocVerifyCLI.run(["trust", "vical", "import", "--vical", Self.vical, "--root-sha256", fingerprint,
                                              "--at", Self.at, "--out", out])
        #expect(imported.status == 0, "\(imported.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.filter { $0.hasSuffix(".pem") }.count == 13)
        #expect(files.contains("manifest.json"))

        let list = try MdocVerifyCLI.run(["trust", "list", "--trust", out, "--at", "2026-01-01T00:00:00Z"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("13 anchor(s)"))
        #expect(list.stdout.contains("scope  org.iso.18013.5.1.mDL"))
        #expect(list.stdout.contains("source VICAL AAMVA issue 89782 of 2025-08-05"))
        // The list's nextUpdate passed before 2026: every imported anchor is flagged as coming from a stale list.
        #expect(list.stdout.components(separatedBy: "  STALE").count - 1 == 13)

        // A manifest from a newer list: importing the older one is a rollback.
        let manifest = out + "/manifest.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "89782", with: "99999")
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let rollback = try MdocVerifyCLI.run(["trust", "vical", "import", "--vical", Self.vical, "--root", Self.root,
                                              "--at", Self.at, "--out", out])
        #expect(rollback.status == 1)
        #expect(rollback.stdout.contains("vical.rollback"))
    }

    @Test("the real AAMVA list after its signer expired names the certificate, its expiry and how stale the list is; no root pinned is a usage error")
    func expiredSigner() throws {
        let run = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root", Self.root, "--at", "2026-11-25T00:00:00Z"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("vical.signer_expired"), "\(run.stdout)")
        #expect(run.stdout.contains("AAMVA Prod Vical-Signer-01") && run.stdout.contains("expired on 2026-04-18T17:38:41Z"))
        #expect(run.stdout.contains("stale since its nextUpdate 2025-08-06T20:47:21Z (475 days)"))
        #expect(!run.stdout.contains("does not chain"))

        let unpinned = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--at", Self.at])
        #expect(unpinned.status == 2 && unpinned.stderr.contains("pin a VICAL root with --root or --root-sha256"), "\(unpinned.stdout)")
        // A fingerprint the list does not carry is the list failing its pin (exit 1), not a usage error.
        let stranger = String(repeating: "ab", count: 32)
        let unmatched = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root-sha256", stranger, "--at", Self.at])
        #expect(unmatched.status == 1 && unmatched.stdout.contains("REJECTED VICAL — vical.signer_untrusted") && unmatched.stdout.contains(stranger),
                "\(unmatched.stdout) \(unmatched.stderr)")
        // The same for an import: refused, and no folder is written.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vical-unmatched-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let refusedImport = try MdocVerifyCLI.run(["trust", "vical", "import", "--vical", Self.vical, "--root-sha256", stranger,
                                                   "--at", Self.at, "--out", out])
        #expect(refusedImport.status == 1 && refusedImport.stdout.contains("REJECTED VICAL — vical.signer_untrusted")
                && !FileManager.default.fileExists(atPath: out), "\(refusedImport.stdout) \(refusedImport.stderr)")
        let badHex = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.vical, "--root-sha256", "not-hex", "--at", Self.at])
        #expect(badHex.status == 2, "\(badHex.stdout)")
    }

    @Test("trust list says how many anchors are expired at the time asked")
    func expiredCount() throws {
        let at = "2034-01-01T00:00:00Z"
        let time = try #require(RFC3339.parseDateTime(at))
        let expired = try ProductionTrustBundle.trustStore().anchors.filter { $0.notAfter < time }.count
        #expect(expired > 0)
        let list = try MdocVerifyCLI.run(["trust", "list", "--at", at])
        #expect(list.stdout.contains("anchor(s), \(expired) of them expired at \(at)"), "\(list.stdout.suffix(200))")
        let none = try MdocVerifyCLI.run(["trust", "list", "--trust", Self.root, "--at", Self.at])
        #expect(none.stdout.contains("1 anchor(s)\n") || none.stdout.hasSuffix("1 anchor(s)\n"), "\(none.stdout)")
    }

    @Test("from any working directory the embedded production bundle is the default trust (no Certificates/ folder needed)")
    func embeddedBundleFromElsewhere() throws {
        let elsewhere = URL(fileURLWithPath: Self.temporaryDirectory())
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let list = try MdocVerifyCLI.run(["trust", "list"], in: elsewhere)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("file   embedded production bundle"))
        #expect(list.stdout.contains("source the production bundle, from AAMVA VICAL issue 89782"))
        let sample = repositoryRoot.appendingPathComponent("TestVectors/apple/in-app-sample").path
        let verify = try MdocVerifyCLI.run([
            "verify", "apple-app", "--response", sample + "/hpke_envelope.cbor.hex", "--private-key", sample + "/merchant_encryption.key",
            "--merchant-id", "PassKit_Identity_Test_Merchant_ID", "--team-id", "PassKit_Identity_Test_Team_ID",
            "--nonce", "964c3e56a06061fa213fce2ba73217a6d359c2e65d44ec6b5b94f9c57eeeb3c045906344c7032e2609eb60533c35a98a75d0d2444ef9057c55cbb2d05d672a25",
            "--allow-test-key", "--at", "2022-06-01T00:00:00Z",
        ], in: elsewhere)
        // Apple's sample is signed by a test IACA, which the production bundle rightly does not trust.
        #expect(verify.status == 1, "\(verify.stderr)")
        #expect(verify.stdout.contains("issuer.chain_untrusted"))
        #expect(!verify.stderr.contains("cannot load trust anchors"))
    }
}
