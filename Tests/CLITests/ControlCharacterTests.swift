import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport

/// Control and bidirectional characters from a response never reach the terminal raw: the text report, `inspect`
/// and the VICAL and trust listings show them as visible escapes.
@Suite("mdocverify: control characters from the input are escaped")
struct ControlCharacterTests {
    static let time = "2026-06-01T12:00:00Z"
    /// Erases the line, then draws a fake verdict over it.
    static let spoof = "9.0\r\u{1B}[2KVERIFIED device-response\n    age_over_21: true\u{202E}"

    /// Whether `text` holds anything `TerminalText` escapes (a raw ESC, CR, C1 or bidi control) outside line ends.
    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) }
    }

    /// A kit DeviceResponse (bare, for `verify device-response`) and its transcript and trust files.
    static func deviceResponse(version: String? = nil, content: [DataElement]? = nil) throws
        -> (response: String, transcript: String, trust: String) {
        let at = VectorFiles.date(time)
        let pki = try TestPKI(seed: 34, at: at)
        let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("control characters"), .bytes([1, 2, 3])])]))
        var options = SimulationOptions(time: at)
        options.statusList = nil
        if let content { options.content = content }
        var bytes = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options).bytes
        if let version {
            // The kit writes `{"version": "1.0", …}` first; only that unsigned text is replaced.
            let original: [UInt8] = [0xA3, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8)
            try #require(Array(bytes.prefix(original.count)) == original)
            let text = Array(version.utf8)
            try #require(text.count < 256)
            bytes = [0xA3, 0x67] + Array("version".utf8) + [0x78, UInt8(text.count)] + text + bytes.dropFirst(original.count)
        }
        return (try MdocVerifyCLITests.temporaryFile(bytes), try MdocVerifyCLITests.temporaryFile(transcript.bytes),
                try MdocVerifyCLITests.temporaryFile(Array(pki.iacaPEM.utf8)))
    }

    static func verify(_ files: (response: String, transcript: String, trust: String), json: Bool = false) throws -> MdocVerifyCLI.Run {
        try MdocVerifyCLI.run(["verify", "device-response", "--device-response", files.response, "--session-transcript", files.transcript,
                               "--trust", files.trust, "--at", time] + (json ? ["--json"] : []))
    }

    @Test("an unsigned version that erases the line and draws VERIFIED: REJECTED stays the first line, the escape is visible")
    func spoofedVersion() throws {
        let files = try Self.deviceResponse(version: Self.spoof)
        let run = try Self.verify(files)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(!Self.hasRawControls(run.stdout), "\(run.stdout.debugDescription)")
        #expect(!run.stdout.contains("\r") && !run.stdout.contains("\u{1B}"))
        #expect(run.stdout.hasPrefix("REJECTED device-response"))
        #expect(run.stdout.contains(#"9.0\r\u{1B}[2KVERIFIED device-response\n    age_over_21: true\u{202E}"#), "\(run.stdout)")
        // The fake verdict is never the start of a line.
        #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("VERIFIED") || $0.hasPrefix("    age_over_21") })

        // JSON: the writer escapes C0 controls; the version is read back unchanged.
        let json = try Self.verify(files, json: true)
        #expect(!json.stdout.contains("\u{1B}") && !json.stdout.contains("\r"))
        #expect(json.stdout.contains(#"\u001b[2K"#))
    }

    @Test("text element values with controls and bidi overrides are printed escaped in a VERIFIED report")
    func elementValue() throws {
        let at = VectorFiles.date(Self.time)
        var content = try #require(SampleContent.elements(for: DocType.mDL, at: at))
        let value = "Doe\u{1B}]0;title\u{07}\u{9B}31m\u{202E}cba\u{2066}\u{200F}\u{85}"
        content = content.map { $0.identifier == "family_name" ? DataElement($0.nameSpace, $0.identifier, .text(value)) : $0 }
        let run = try Self.verify(try Self.deviceResponse(content: content))
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(!Self.hasRawControls(run.stdout), "\(run.stdout.debugDescription)")
        #expect(run.stdout.contains(#"family_name: Doe\u{1B}]0;title\u{7}\u{9B}31m\u{202E}cba\u{2066}\u{200F}\u{85}"#), "\(run.stdout)")
    }

    @Test("inspect: text strings come out quoted with every control escaped")
    func inspect() throws {
        let files = try Self.deviceResponse(version: Self.spoof)
        let run = try MdocVerifyCLI.run(["inspect", files.response])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!Self.hasRawControls(run.stdout), "\(run.stdout.debugDescription)")
        #expect(run.stdout.contains(#"version: "9.0\r\u001b[2KVERIFIED device-response\n    age_over_21: true\u202e""#), "\(run.stdout)")
        let diagnostic = try MdocVerifyCLI.run(["inspect", "--diagnostic", files.response])
        #expect(!Self.hasRawControls(diagnostic.stdout), "\(diagnostic.stdout.debugDescription)")
        #expect(diagnostic.stdout.contains(#""version": "9.0\r\u001b[2KVERIFIED device-response\n    age_over_21: true\u202e""#))
    }

    @Test("trust vical verify, import and list: a provider and docType with controls are printed escaped")
    func vical() throws {
        let at = VectorFiles.date(Self.time)
        let pki = try TestPKI(seed: 35, at: at)
        let builder = try VICALBuilder(seed: 35, at: at)
        let provider = "Evil\u{1B}[2J\u{202E}"
        let list = try builder.build(entries: [.init(pki.iaca, docTypes: ["org.iso.18013.5.1.mDL\r\u{1B}[1A"])], issueID: 1, date: at,
                                     nextUpdate: at.addingTimeInterval(86_400), provider: provider)
        let vical = try MdocVerifyCLITests.temporaryFile(list)
        let root = try MdocVerifyCLITests.temporaryFile(Array(builder.root.pemEncoded.utf8))
        let verified = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", vical, "--root", root, "--at", Self.time])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(!Self.hasRawControls(verified.stdout), "\(verified.stdout.debugDescription)")
        #expect(verified.stdout.contains(#"VERIFIED VICAL from Evil\u{1B}[2J\u{202E} "#), "\(verified.stdout)")
        #expect(verified.stdout.contains(#"docTypes org.iso.18013.5.1.mDL\r\u{1B}[1A"#), "\(verified.stdout)")

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-controls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let imported = try MdocVerifyCLI.run(["trust", "vical", "import", "--vical", vical, "--root", root, "--at", Self.time, "--out", out])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(!Self.hasRawControls(imported.stdout) && imported.stdout.contains(#"Evil\u{1B}[2J\u{202E}"#), "\(imported.stdout)")
        let listed = try MdocVerifyCLI.run(["trust", "list", "--trust", out, "--at", Self.time])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!Self.hasRawControls(listed.stdout), "\(listed.stdout.debugDescription)")
        #expect(listed.stdout.contains(#"source VICAL Evil\u{1B}[2J\u{202E}"#), "\(listed.stdout)")
    }
}
