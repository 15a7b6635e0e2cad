import Foundation
import Testing
import TestSupport

/// `trust list` on the default bundle says which of its anchors come from a list past its nextUpdate (issue 37): the
/// bundle's AAMVA half is from a VICAL stale since 2025-08-06.
@Suite("mdocverify trust list: the bundle's stale source list")
struct TrustListProvenanceTests {
    static let warning = "warning: 13 anchor(s) come from AAMVA VICAL issue 89782 (2025-08-05), a list stale since 2025-08-06T20:47:21Z"

    @Test("the default bundle after the list's nextUpdate: a warning line with the date and the fix")
    func staleWarning() throws {
        let run = try MdocVerifyCLI.run(["trust", "list", "--at", "2026-11-22T00:00:00Z"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let warning = try #require(lines.first { $0.hasPrefix("warning:") }, "\(lines.suffix(3))")
        #expect(warning.hasPrefix(Self.warning), "\(warning)")
        #expect(warning.contains("refresh the bundle (Certificates/production/README.md)") && warning.contains("--trust"))
        // The warning comes after the count, as the last line.
        #expect(lines.last == warning && lines.dropLast().last?.hasPrefix("26 anchor(s)") == true)
    }

    @Test("no warning before the nextUpdate, nor for trust given with --trust")
    func noWarning() throws {
        let before = try MdocVerifyCLI.run(["trust", "list", "--at", "2025-08-06T00:00:00Z"])
        #expect(before.status == 0 && !before.stdout.contains("warning:"))
        let given = try MdocVerifyCLI.run(["trust", "list", "--trust", VectorFiles.url("Certificates/test").path, "--at", "2026-11-22T00:00:00Z"])
        #expect(given.status == 0 && !given.stdout.contains("warning:"), "\(given.stderr)")
    }
}
