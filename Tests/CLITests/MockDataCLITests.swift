import Foundation
import Testing
import TestSupport

/// `mdocverify simulate … --fault mock-data` writes mock data from a development device (no issuer signature, a real
/// device signature); `verify` refuses it with `issuer.mock_data`, and with `--allow-test-key` (test mode) verifies it
/// with a warning under assurance test.
@Suite("mdocverify: mock data from a development device")
struct MockDataCLITests {
    static let at = "2026-06-01T12:00:00Z"
    static let nonce = String(repeating: "5a", count: 32)

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-data-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func json(_ run: MdocVerifyCLI.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
    }

    static func codes(_ report: [String: Any]) -> [String] {
        (report["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }

    static func mockLine(_ report: [String: Any]) -> [String: Any]? {
        (report["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "issuer.mock_data" }
    }

    @Test("apple-app: refused with issuer.mock_data (exit 1, named in the summary); with --allow-test-key verified, assurance test")
    func appleApp() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keys = try MdocVerifyCLI.run(["keygen", "--out", folder + "/keys"])
        #expect(keys.status == 0, "\(keys.stderr)")
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", folder + "/keys/merchant-public.pem",
                                               "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", Self.nonce,
                                               "--at", Self.at, "--fault", "mock-data", "--out", folder + "/case"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("issuer.mock_data"), "\(simulated.stdout)")
        let verify = ["verify", "apple-app", "--response", folder + "/case/response.cbor", "--private-key", folder + "/keys/merchant-private.pem",
                      "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", Self.nonce,
                      "--trust", folder + "/case/iaca.pem", "--at", Self.at]

        let text = try MdocVerifyCLI.run(verify)
        #expect(text.status == 1)
        #expect(text.stdout.contains("issuer.mock_data: document 0: mock data from a development device"), "\(text.stdout)")
        #expect(text.stdout.contains("pass --allow-test-key to verify it in test mode"), "\(text.stdout)")

        let refused = try Self.json(try MdocVerifyCLI.run(verify + ["--json"]))
        #expect(Self.codes(refused) == ["issuer.mock_data"])
        #expect(refused["assurance"] as? String == "production")
        #expect(Self.mockLine(refused)?["status"] as? String == "fail")

        let testRun = try MdocVerifyCLI.run(verify + ["--allow-test-key", "--json"])
        #expect(testRun.status == 0, "\(testRun.stdout) \(testRun.stderr)")
        let accepted = try Self.json(testRun)
        #expect(accepted["verified"] as? Bool == true)
        #expect(accepted["assurance"] as? String == "test")
        #expect(Self.codes(accepted).isEmpty)
        #expect(Self.mockLine(accepted)?["status"] as? String == "warn")
    }

    @Test("annex-c: request → simulate --fault mock-data → verify: exit 1 with issuer.mock_data")
    func annexC() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
        try Data(policy.utf8).write(to: URL(fileURLWithPath: folder + "/policy.json"))
        let request = try MdocVerifyCLI.run(["request", "annex-c", "--origin", "https://shop.example", "--request", folder + "/policy.json",
                                             "--out", folder + "/request"])
        #expect(request.status == 0, "\(request.stderr)")
        let simulated = try MdocVerifyCLI.run(["simulate", "annex-c", "--encryption-info", folder + "/request/data.json",
                                               "--origin", "https://shop.example", "--elements", "org.iso.18013.5.1:family_name",
                                               "--at", Self.at, "--fault", "mock-data", "--out", folder + "/case"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let verified = try MdocVerifyCLI.run(["verify", "annex-c", "--response", folder + "/case/response.txt",
                                              "--session", folder + "/request/session.json", "--trust", folder + "/case/iaca.pem",
                                              "--request", folder + "/policy.json", "--at", Self.at, "--json"])
        #expect(verified.status == 1)
        let report = try Self.json(verified)
        #expect(Self.codes(report) == ["issuer.mock_data"])
        #expect(Self.mockLine(report)?["status"] as? String == "fail")
    }
}
