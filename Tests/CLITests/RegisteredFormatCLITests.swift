import ExampleFormat
import Foundation
@testable import mdocverify
import MdocModel
import MdocTesting
import Testing
import Verifier

/// `request`, `simulate` and `verify` of a format registered by the test alone (`org-example-test`), run in-process
/// through `MdocVerify.run(_:formats:)`: the tool drives it through its descriptor, its flow and the kit's wallet.
@Suite("mdocverify: a format registered by a test (org-example-test)")
struct RegisteredFormatCLITests {
    static let policy = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":false}}}]}"#

    @Test("request → simulate → verify: the kit's answer verifies (exit 0), a faulted one is rejected (exit 1), another request's session refuses it")
    func roundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("registered-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func run(_ arguments: [String]) -> Int32 { MdocVerify.run(arguments, formats: .withExample) }
        try Self.policy.write(toFile: path("policy.json"), atomically: true, encoding: .utf8)

        for request in ["first", "second"] {
            #expect(run(["request", "org-example-test", "--origin", "https://shop.example", "--request", path("policy.json"),
                         "--out", path(request)]) == 0)
        }
        let published = try #require(JSONValue.object(try String(contentsOfFile: path("first/published.json"), encoding: .utf8), maxNodes: 100))
        #expect(published["protocol"] == .string("org-example-test-v1"))
        #expect(published["nonce"]?.string != nil)

        #expect(run(["simulate", "org-example-test", "--published", path("first/published.json"), "--request", path("policy.json"),
                     "--out", path("answer")]) == 0)
        #expect(run(["simulate", "org-example-test", "--published", path("first/published.json"), "--request", path("policy.json"),
                     "--fault", "mso-expired", "--out", path("expired")]) == 0)
        func verify(_ answer: String, session: String) -> Int32 {
            run(["verify", "org-example-test", "--response", path("\(answer)/response.txt"), "--session", path("\(session)/session.json"),
                 "--trust", path("\(answer)/iaca.pem")])
        }
        #expect(verify("answer", session: "first") == 0)
        #expect(verify("expired", session: "first") == 1)
        #expect(verify("answer", session: "second") == 1, "the transcript binds the first request's nonce")
    }

    @Test("without the registration the format is unknown to every command: a usage error, exit 2")
    func unregistered() {
        #expect(MdocVerify.run(["request", "org-example-test", "--request", "x", "--out", "y"], formats: .standard) == 2)
        #expect(MdocVerify.run(["verify", "org-example-test", "--response", "x", "--session", "y"], formats: .standard) == 2)
    }
}
