import Foundation
@testable import mdocverify
import MdocTesting
import Testing
import TestSupport
import Verifier

/// Every list of formats that is not computed from `FormatRegistry` (argument-parser's subcommand lists, the OpenAPI
/// document, the inspector page, docs/formats.md) names every registered format: a format added to the registry
/// and forgotten in one of them fails here, with the list that misses it.
@Suite("Format lists")
struct FormatListTests {
    static let all = Set(VerificationReport.Format.allCases.map(\.rawValue))
    static let requestable = Set(VerificationReport.Format.allCases.filter(\.hasRequestFlow).map(\.rawValue))

    /// The subcommand names in `mdocverify <command> --help`.
    static func subcommands(_ command: String) throws -> Set<String> {
        let run = try MdocVerifyCLI.run([command, "--help"])
        #expect(run.status == 0)
        guard let block = run.stdout.components(separatedBy: "SUBCOMMANDS:").last else { return [] }
        // A subcommand line: two spaces, the name, then at least two spaces before its summary.
        return Set(block.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            let name = line.dropFirst(2).prefix { $0 != " " }
            return line.dropFirst(2 + name.count).hasPrefix("  ") ? String(name) : nil
        })
    }

    static func file(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("verify and simulate have a subcommand per format, request one per format with a request flow")
    func cliSubcommands() throws {
        #expect(try Self.subcommands("verify") == Self.all)
        #expect(try Self.subcommands("simulate") == Self.all)
        #expect(try Self.subcommands("request") == Self.requestable)
    }

    @Test("the CLI's per-format command list has one entry per registered format, in registry order")
    func commandList() {
        #expect(FormatCommands.all.map(\.format) == VerificationReport.Format.allCases)
        #expect(FormatCommands.all.map { $0.request != nil } == VerificationReport.Format.allCases.map(\.hasRequestFlow))
    }

    @Test("simulate --list-faults names every format")
    func faultList() throws {
        let run = try MdocVerifyCLI.run(["simulate", "--list-faults"])
        #expect(run.status == 0)
        for format in Self.all {
            #expect(run.stdout.contains(format), "--list-faults never names \(format)")
        }
    }

    @Test("the kit simulates every registered format, and every fault applies to one")
    func kitFormats() {
        #expect(Set(ResponseFormat.allCases.filter { format in Fault.allCases.contains { $0.formats.contains(format) } }.map(\.rawValue))
            == Self.all)
        for fault in Fault.allCases {
            #expect(!fault.formats.isEmpty, "\(fault.name) applies to no format")
        }
    }

    @Test("docs/openapi.yaml's request format enum is the formats with a request flow")
    func openAPIEnum() throws {
        let yaml = try Self.file("docs/openapi.yaml")
        let enums = yaml.split(separator: "\n").compactMap { line -> Set<String>? in
            guard let open = line.range(of: "enum: ["), let close = line.range(of: "]", range: open.upperBound..<line.endIndex) else { return nil }
            return Set(line[open.upperBound..<close.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        #expect(enums.contains(Self.requestable), "no `enum: [...]` in docs/openapi.yaml lists \(Self.requestable.sorted())")
    }

    @Test("the inspector page offers every format")
    func inspectorOptions() throws {
        let html = try Self.file("Sources/VerifyServer/Inspector/inspector.html")
        for format in Self.all {
            #expect(html.contains("<option value=\"\(format)\""), "the inspector has no option for \(format)")
        }
    }

    @Test("docs/formats.md has the section each format's descriptor names")
    func formatsDocument() throws {
        let text = try Self.file("docs/formats.md")
        for descriptor in FormatRegistry.descriptors {
            let section = try #require(descriptor.documentation.split(separator: "§").last, "\(descriptor.format)")
            #expect(descriptor.documentation.hasPrefix("docs/formats.md §"))
            #expect(text.contains("<a id=\"s\(section)\"></a>"), "docs/formats.md has no section \(section) for \(descriptor.format)")
        }
    }
}
