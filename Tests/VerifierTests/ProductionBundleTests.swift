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
    static let generated = "Sources/Verifier/Trust/ProductionTrustBundle+Embedded.swift"

    static func pemFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".pem") }.sorted()
    }

    /// The Swift source the folder generates.
    static func source() throws -> String {
        func literal(_ text: String) -> String { "#\"\"\"\n" + text + (text.hasSuffix("\n") ? "" : "\n") + "\"\"\"#" }
        let pems = try pemFiles().map { VectorFiles.text(folder + "/" + $0) }
        let manifestPath = repositoryRoot.appendingPathComponent(folder + "/manifest.json").path
        let manifest = FileManager.default.fileExists(atPath: manifestPath) ? VectorFiles.text(folder + "/manifest.json") : ""
        let list = pems.isEmpty ? "[]" : "[\n" + pems.map { "        " + literal($0).replacingOccurrences(of: "\n", with: "\n        ") + "," }
            .joined(separator: "\n") + "\n    ]"
        return """
            // Generated from Certificates/production/ by `UPDATE_EMBEDDED_BUNDLE=1 swift test --filter ProductionBundle`; do not edit.

            extension ProductionTrustBundle {
                /// The PEM files of the bundle, in file-name order.
                static let embeddedPEM: [String] = \(list)

                /// `manifest.json` of the bundle ("" when it has none).
                static let embeddedManifest = \(manifest.isEmpty ? "\"\"" : literal(manifest).replacingOccurrences(of: "\n", with: "\n    "))
            }

            """
    }

    @Test("the embedded bundle is the folder's files (regenerate with UPDATE_EMBEDDED_BUNDLE=1)")
    func embeddedMatchesFolder() throws {
        let expected = try Self.source()
        let url = repositoryRoot.appendingPathComponent(Self.generated)
        if ProcessInfo.processInfo.environment["UPDATE_EMBEDDED_BUNDLE"] == "1" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == expected,
                "\(Self.generated) is out of date: run UPDATE_EMBEDDED_BUNDLE=1 swift test --filter ProductionBundle")
        let store = try ProductionTrustBundle.trustStore()
        #expect(store.anchors.count == (try Self.pemFiles().count))
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
