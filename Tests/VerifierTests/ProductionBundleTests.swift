import CryptoCore
import Foundation
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
}
