import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// The kit answers requests the way a wallet does: for every format, `simulate <format> --request request.json`
/// discloses exactly the requested elements, and the `verify` command the kit writes into case.json verifies it with
/// that request (no `policy.element_not_requested`).
@Suite("mdocverify simulate answers its own requests")
struct KitRoundTripCLITests {
    static let request = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#
    static let origin = "https://shop.example"

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kit-round-trip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(request.utf8).write(to: url.appendingPathComponent("request.json"))
        return url
    }

    /// Runs the `verify` line of case.json (its first word is `mdocverify`) and checks it verified exactly what was asked.
    static func verifyCase(_ folder: URL) throws {
        let data = try Data(contentsOf: folder.appendingPathComponent("case.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object["elements"] as? [String] ?? []) == ["org.iso.18013.5.1:age_over_21", "org.iso.18013.5.1:family_name"])
        let command = try #require(object["verify"] as? String).split(separator: " ").map(String.init).dropFirst()
        let run = try MdocVerifyCLI.run(Array(command) + ["--json"], in: folder.deletingLastPathComponent())
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let documents = try #require(report["documents"] as? [[String: Any]])
        let elements = try #require(documents.first?["elements"] as? [String: [String: Any]])
        #expect(Set(elements["org.iso.18013.5.1"]?.keys.map { $0 } ?? []) == ["family_name", "age_over_21"])
    }

    @Test("openid4vp: request openid4vp → simulate openid4vp --request → verify openid4vp")
    func openID4VP() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("request").path
        let requested = try MdocVerifyCLI.run(["request", "openid4vp", "--origin", Self.origin, "--request",
                                               folder.appendingPathComponent("request.json").path, "--out", out])
        #expect(requested.status == 0, "\(requested.stderr)")
        let simulated = try MdocVerifyCLI.run(["simulate", "openid4vp", "--dc-request", out + "/dc-request.json", "--origin", Self.origin,
                                               "--request", out + "/request.json", "--out", folder.appendingPathComponent("case").path])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        try Self.verifyCase(folder.appendingPathComponent("case"))
    }

    @Test("annex-c: request annex-c → simulate annex-c --encryption-info data.json --request → verify annex-c --session")
    func annexC() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("request").path
        let requested = try MdocVerifyCLI.run(["request", "annex-c", "--origin", Self.origin, "--request",
                                               folder.appendingPathComponent("request.json").path, "--out", out])
        #expect(requested.status == 0, "\(requested.stderr)")
        let simulated = try MdocVerifyCLI.run(["simulate", "annex-c", "--encryption-info", out + "/data.json", "--origin", Self.origin,
                                               "--request", out + "/request.json", "--out", folder.appendingPathComponent("case").path])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        try Self.verifyCase(folder.appendingPathComponent("case"))
    }

    @Test("device-response: simulate device-response --session-transcript --request → verify device-response")
    func deviceResponse() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transcript = folder.appendingPathComponent("transcript.cbor")
        try Data(SessionTranscript(built: .array([.null, .null, .text("KitRoundTripCLITests")])).bytes).write(to: transcript)
        let simulated = try MdocVerifyCLI.run(["simulate", "device-response", "--session-transcript", transcript.path, "--request",
                                               folder.appendingPathComponent("request.json").path, "--out", folder.appendingPathComponent("case").path])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        try Self.verifyCase(folder.appendingPathComponent("case"))
    }

    @Test("--request with a docType the request does not ask for, or with --elements, is a usage error")
    func usage() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transcript = folder.appendingPathComponent("transcript.cbor")
        try Data(SessionTranscript(built: .array([.null, .null, .text("x")])).bytes).write(to: transcript)
        let base = ["simulate", "device-response", "--session-transcript", transcript.path, "--request",
                    folder.appendingPathComponent("request.json").path, "--out", folder.appendingPathComponent("case").path]
        let other = try MdocVerifyCLI.run(base + ["--doctype", "org.iso.23220.photoid.1"])
        #expect(other.status == 2 && other.stderr.contains("asks for no org.iso.23220.photoid.1"), "\(other.stderr)")
        let both = try MdocVerifyCLI.run(base + ["--elements", "org.iso.18013.5.1:family_name"])
        #expect(both.status == 2 && both.stderr.contains("not both"))
    }
}
