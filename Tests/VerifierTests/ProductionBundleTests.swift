import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// The production bundle ships with provenance, and the binaries embed exactly the folder's files.
@Suite("Production trust bundle")
struct ProductionBundleTests {
    static let folder = "Certificates/production"
    static let embedded = "Sources/Verifier/Trust/Embedded/"

    static func pemFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".pem") }.sorted()
    }

    /// What the binaries embed, by file: the folder's PEM files concatenated in file-name order, and its manifest.
    static func embeddedFiles() throws -> [(name: String, text: String)] {
        [("ProductionBundle.pem", try pemFiles().map { VectorFiles.text(folder + "/" + $0) }.joined()),
         ("ProductionManifest.json", VectorFiles.text(folder + "/manifest.json"))]
    }

    @Test("the embedded bundle is the folder's files (regenerate with UPDATE_EMBEDDED_BUNDLE=1)")
    func embeddedMatchesFolder() throws {
        for (name, expected) in try Self.embeddedFiles() {
            let url = repositoryRoot.appendingPathComponent(Self.embedded + name)
            if ProcessInfo.processInfo.environment["UPDATE_EMBEDDED_BUNDLE"] == "1" {
                try expected.write(to: url, atomically: true, encoding: .utf8)
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == expected,
                    "\(Self.embedded + name) is out of date: run UPDATE_EMBEDDED_BUNDLE=1 swift test --filter ProductionBundle")
        }
        let store = try ProductionTrustBundle.trustStore()
        #expect(store.anchors.count == (try Self.pemFiles().count))
        #expect(Set(store.provenance.keys).count == store.anchors.count)
    }

    @Test("every certificate has a manifest entry with matching fingerprints, sources and an honest expiry flag; no test root")
    func manifestPinsTheBundle() throws {
        let files = try Self.pemFiles()
        #expect(!files.isEmpty, "the production bundle is empty")
        let data = try #require(FileManager.default.contents(atPath: repositoryRoot.appendingPathComponent(Self.folder + "/manifest.json").path))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require(manifest["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["file"] as? String }) == Set(files))
        let now = VectorFiles.date("2026-11-22T00:00:00Z")
        var spkis: Set<String> = []
        for entry in entries {
            let file = try #require(entry["file"] as? String)
            let certificate = try Certificate(pemEncoded: VectorFiles.text(Self.folder + "/" + file))
            #expect(entry["certificateSHA256"] as? String == Hex.encode(certificate.sha256Fingerprint), "\(file)")
            let spki = Hex.encode(certificate.subjectPublicKeyInfoSHA256)
            #expect(entry["spkiSHA256"] as? String == spki, "\(file)")
            #expect(spkis.insert(spki).inserted, "\(file) repeats another entry's key")
            #expect((entry["docTypes"] as? [String])?.isEmpty == false, "\(file)")
            #expect((entry["sources"] as? [[String: Any]])?.isEmpty == false, "\(file)")
            #expect(entry["expired"] as? Bool == (certificate.notAfter < now), "\(file) expiry flag")
            let subject = certificate.subject.description.lowercased()
            #expect(!subject.contains("test") && !subject.contains("utopia") && !subject.contains("pre-prod"), "\(file) looks like a test root")
        }
    }
}
