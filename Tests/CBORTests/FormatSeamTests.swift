import Foundation
import Testing
import TestSupport

/// Issue 48: outside its own folders no code asks which format it has. A format says what the edges need through its
/// `FormatDescriptor` (the library) and its `KitFormat` (the compliance kit); a switch or comparison on a format
/// elsewhere is a place a new format would have to be added by hand, and a `default:` would silently absorb it.
@Suite("Format seam")
struct FormatSeamTests {
    /// A switch on a format, a comparison with a named format, a literal list of formats, or a `case` of one.
    static let branch = try! NSRegularExpression(pattern: #"switch [a-zA-Z.]*format\b|[!=]= \.(annexC|openID4VP|appleApp|deviceResponse|openID4VPRedirect)\b|\[\.(annexC|appleApp|openID4VP|deviceResponse|openID4VPRedirect),|case \.(annexC|openID4VP|appleApp|deviceResponse|openID4VPRedirect)\b"#)
    /// Where a format's own code lives.
    static let formatFolders = try! NSRegularExpression(pattern: #"^Sources/Verifier/(Apple|AnnexC|OpenID4VP[A-Za-z]*|DeviceResponse)/|^Sources/MdocTesting/Formats/"#)

    /// The branches left, each with why it stays for now; the list only shrinks (a new branch fails, and so does one
    /// listed here that is gone). None is left.
    static let remaining: [String: String] = [:]

    static func branches() throws -> [String] {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        var found: [String] = []
        for file in try SourceShape.swiftFiles(under: sources) {
            let relative = "Sources/" + file.path.dropFirst(sources.path.count + 1)
            let whole = NSRange(relative.startIndex..., in: relative)
            guard formatFolders.firstMatch(in: relative, range: whole) == nil else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                if branch.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test("no per-format branch outside the format folders but the listed ones; a listed file that has none left is struck off")
    func noBranchesOutsideFormats() throws {
        let found = try Self.branches()
        let unlisted = found.filter { line in !Self.remaining.keys.contains { line.hasPrefix($0 + ":") } }
        #expect(unlisted.isEmpty, """
            ask the format's FormatDescriptor or KitFormat instead of naming formats here:
            \(unlisted.joined(separator: "\n"))
            """)
        let gone = Self.remaining.keys.filter { file in !found.contains { $0.hasPrefix(file + ":") } }
        #expect(gone.isEmpty, "no branch is left in \(gone.sorted()): remove it from FormatSeamTests.remaining")
        #expect(found.isEmpty, "\(found.count) branches: the count stays at 0\n\(found.joined(separator: "\n"))")
    }
}
