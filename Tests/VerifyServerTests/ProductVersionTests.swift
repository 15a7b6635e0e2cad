import Foundation
import Testing
import TestSupport
import Verifier
import Yams

/// One version number: `ProductVersion.package`, what both binaries print, docs/openapi.yaml, the documentation and
/// the newest release in CHANGELOG.md.
@Suite("One product version everywhere")
struct ProductVersionTests {
    static let version = ProductVersion.package

    @Test("the version is MAJOR.MINOR.PATCH")
    func shape() {
        #expect(Self.version.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(Self.version)")
    }

    @Test("docs/openapi.yaml's info.version is the product version")
    func openAPI() throws {
        let document = try #require(try Yams.load(yaml: VectorFiles.text("docs/openapi.yaml")) as? [String: Any])
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["version"] as? String == Self.version)
    }

    @Test("Getting started asks for this version of the package")
    func gettingStarted() {
        let text = VectorFiles.text("Sources/Verifier/Verifier.docc/GettingStarted.md")
        let versions = text.matches(of: /from: "([^"]+)"/).map { String($0.output.1) }
        #expect(!versions.isEmpty)
        #expect(versions.allSatisfy { $0 == Self.version }, "\(versions)")
    }

    @Test("CHANGELOG.md: Keep a Changelog shape, Unreleased first, dated releases newest first, the newest this version")
    func changelog() throws {
        let text = VectorFiles.text("CHANGELOG.md")
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        #expect(headings.first == "## [Unreleased]")
        let releases = headings.dropFirst().map { heading in heading.wholeMatch(of: /## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})/) }
        #expect(releases.allSatisfy { $0 != nil }, "undated or malformed: \(headings)")
        let versions = releases.compactMap { $0.map { String($0.output.1) } }
        #expect(versions.first == Self.version, "newest release \(versions.first ?? "none"), product \(Self.version)")
        let dates = releases.compactMap { $0.map { String($0.output.2) } }
        #expect(dates == dates.sorted(by: >), "releases not newest first: \(dates)")
        let allowed: Set<String> = ["### Added", "### Changed", "### Deprecated", "### Removed", "### Fixed", "### Security"]
        let sections = text.split(separator: "\n").filter { $0.hasPrefix("### ") }.map(String.init)
        #expect(Set(sections).isSubset(of: allowed), "\(Set(sections).subtracting(allowed))")
        // The README points here instead of keeping a changelog of its own.
        let readme = VectorFiles.text("README.md")
        #expect(readme.contains("[CHANGELOG.md](CHANGELOG.md)"))
        #expect(!readme.contains("- **Security round 3**"))
    }

    @Test("mdocverify --version and verify-server --version print this version first", arguments: ["mdocverify", "verify-server"])
    func binaries(_ name: String) throws {
        let process = Process()
        process.executableURL = MdocVerifyCLI.builtProduct(name)
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix(Self.version + " ("), "\(text)")
    }

    @Test("LICENSE is the Apache License 2.0 and SECURITY.md says how to report and what is in scope")
    func projectFiles() {
        let license = VectorFiles.text("LICENSE")
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
        let security = VectorFiles.text("SECURITY.md")
        for heading in ["## How to report", "## In scope", "## Out of scope"] {
            #expect(security.contains(heading))
        }
    }
}
