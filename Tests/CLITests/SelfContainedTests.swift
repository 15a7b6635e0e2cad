import Foundation
import Testing
import TestSupport

/// A person who clones the repository can follow every reference: no source, test or document points to a file
/// outside it.
@Suite("The repository is self-contained")
struct SelfContainedTests {
    /// Paths into folders beside the repository, and the names of documents that live only outside it.
    static let outside = ["../" + "shared", "../../" + "spec", "../" + "spec/", "apple-verify-with-" + "wallet.md",
                          "iso18013-5-" + "verification.md", "swift-linux-" + "stack.md", "trust-and-" + "revocation.md",
                          "openid4vp-" + "dc-api.md"]

    @Test("no source, test, README or doc refers outside the repository")
    func noOutsideReferences() throws {
        let root = repositoryRoot
        var hits: [String] = []
        for folder in ["Sources", "Tests", "Benchmarks", "docs", "TestVectors", "Certificates", ".ci"] {
            guard let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in files where ["swift", "md", "yaml", "json", "c", "h", "txt", ""].contains(url.pathExtension) {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                for needle in Self.outside where text.contains(needle) { hits.append("\(url.path): \(needle)") }
            }
        }
        for needle in Self.outside where VectorFiles.text("README.md").contains(needle) { hits.append("README.md: \(needle)") }
        #expect(hits.isEmpty, "\(hits)")
    }
}
