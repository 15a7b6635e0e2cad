import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// Runs the built `mdocverify` binary the way a user would.
@Suite("mdocverify CLI")
struct MdocVerifyCLITests {
    typealias Run = MdocVerifyCLI.Run

    static func run(_ arguments: [String]) throws -> Run { try MdocVerifyCLI.run(arguments) }

    @Test("--version names the product version and the OpenSSL and libcbor in use; completion scripts are generated")
    func version() throws {
        let run = try Self.run(["--version"])
        #expect(run.status == 0)
        let line = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.wholeMatch(of: /\d+\.\d+\.\d+ \(OpenSSL 3\.\d+\.\d+[^;]*; libcbor 0\.\d+\.\d+\)/) != nil, "\(line)")
        let completion = try Self.run(["--generate-completion-script", "bash"])
        #expect(completion.status == 0 && completion.stdout.contains("mdocverify") && completion.stdout.contains("verify"))
    }

    static let sample = "TestVectors/apple/in-app-sample/"
    static func appleArguments(response: String = sample + "hpke_envelope.cbor.hex", at: String = "2022-06-01T00:00:00Z",
                               extra: [String] = ["--allow-test-key"]) -> [String] {
        ["verify", "apple-app", "--response", response, "--private-key", sample + "merchant_encryption.key",
         "--merchant-id", AppleSampleVector.merchantID, "--team-id", AppleSampleVector.teamID,
         "--nonce", Hex.encode(AppleSampleVector.nonce),
         "--trust", "Certificates/test/apple-passkit-identity-test-issuer-root.pem", "--at", at] + extra
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("`mdocverify sample` verifies the bundled Apple sample (exit 0)")
    func sample() throws {
        let run = try Self.run(["sample"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("VERIFIED apple-app"))
        #expect(run.stdout.contains("family_name: Doe"))
        #expect(run.stdout.contains("portrait: <JPEG, 1042 bytes>"))
    }

    @Test("verify apple-app reads hex, base64, base64url and raw CBOR responses alike")
    func inputEncodings() throws {
        let raw = AppleSampleVector.envelope
        let files = [
            Self.sample + "hpke_envelope.cbor.hex",
            try Self.temporaryFile(raw),
            try Self.temporaryFile(Array(Data(raw).base64EncodedString().utf8)),
            try Self.temporaryFile(Array(Base64URL.encode(raw).utf8)),
        ]
        for file in files {
            let run = try Self.run(Self.appleArguments(response: file))
            #expect(run.status == 0, "\(file): \(run.stdout) \(run.stderr)")
        }
    }

    @Test("--json prints the documented shape; a rejection exits 1 with its code and no element values")
    func json() throws {
        let good = try Self.run(Self.appleArguments(extra: ["--allow-test-key", "--json"]))
        #expect(good.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["verified", "format", "assurance", "errors", "checks", "documents"])
        #expect(object["verified"] as? Bool == true)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.allSatisfy { ["pass", "fail", "warn", "skip"].contains($0["status"] as? String ?? "") })

        let expired = try Self.run(Self.appleArguments(at: "2024-01-01T00:00:00Z", extra: ["--allow-test-key", "--json"]))
        #expect(expired.status == 1)
        let rejected = try #require(try JSONSerialization.jsonObject(with: Data(expired.stdout.utf8)) as? [String: Any])
        #expect(rejected["verified"] as? Bool == false)
        #expect((rejected["errors"] as? [[String: String]])?.first?["code"] == "mso.expired")
        #expect(!expired.stdout.contains("Jane"))
    }

    @Test("another team ID is rejected with envelope.transcript_mismatch (exit 1)")
    func wrongTeam() throws {
        var arguments = Self.appleArguments()
        if let index = arguments.firstIndex(of: "--team-id") { arguments[index + 1] = "ABCDE12345" }
        let run = try Self.run(arguments)
        #expect(run.status == 1)
        #expect(run.stdout.contains("envelope.transcript_mismatch"))
    }

    @Test("exit 2: Apple's test key without --allow-test-key, an unreadable key, a missing option, a bad --at")
    func usageErrors() throws {
        let testKey = try Self.run(Self.appleArguments(extra: []))
        #expect(testKey.status == 2)
        #expect(testKey.stderr.contains("envelope.test_key"))
        var arguments = Self.appleArguments()
        if let index = arguments.firstIndex(of: "--private-key") { arguments[index + 1] = "/nonexistent/key.pem" }
        let unreadable = try Self.run(arguments)
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("/nonexistent/key.pem"))
        let missing = try Self.run(["verify", "apple-app", "--response", Self.sample + "hpke_envelope.cbor.hex"])
        #expect(missing.status == 2)
        let badTime = try Self.run(Self.appleArguments(at: "yesterday"))
        #expect(badTime.status == 2)
    }

    @Test("inspect --diagnostic prints diagnostic notation with tag-24 contents expanded")
    func inspectDiagnostic() throws {
        let envelope = try Self.run(["inspect", "--diagnostic", Self.sample + "hpke_envelope.cbor.hex"])
        #expect(envelope.status == 0)
        #expect(envelope.stdout.contains("\"APPLE-HPKE-v1\""))
        let plaintext = try Self.run(["inspect", "--diagnostic", Self.sample + "plaintext_topics.cbor.hex"])
        #expect(plaintext.status == 0)
        #expect(plaintext.stdout.contains("<<"))
        #expect(plaintext.stdout.contains("\"family_name\""))
    }

    @Test("inspect opens Apple's sample with its key: a tree with the decoded MSO, COSE headers named and the certificate summarised; --json too")
    func inspectTree() throws {
        let nonce = try #require(VectorFiles.text(Self.sample + "session_transcript_parameters.txt").split(separator: "\n")
            .first { $0.hasPrefix("Nonce: ") }.map { String($0.dropFirst("Nonce: ".count)) })
        let open = ["--private-key", Self.sample + "merchant_encryption.key", "--merchant-id", "PassKit_Identity_Test_Merchant_ID",
                    "--team-id", "PassKit_Identity_Test_Team_ID", "--nonce", nonce, "--allow-test-key"]
        let tree = try Self.run(["inspect", Self.sample + "hpke_envelope.cbor.hex"] + open)
        #expect(tree.status == 0, "\(tree.stderr)")
        let lines = tree.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("decrypted: DeviceResponse") == true)
        for expected in ["      docType: \"org.iso.18013.5.1.mDL\"", "            [11]: family_name = \"Doe\"  (digestID 1)",
                         "        issuerAuth: COSE_Sign1", "            alg: ES256 (-7)", "              [0]: CN=PassKit Identity Test Document Signing",
                         "            digestAlgorithm: \"SHA-256\"", "              validUntil: 0(\"2023-03-22T22:48:31Z\")"] {
            #expect(lines.contains(expected), "\(expected)\n\(tree.stdout)")
        }
        #expect(tree.stdout.contains("MobileSecurityObject") && tree.stdout.contains("(1042 bytes)"))
        #expect(lines.allSatisfy { $0.count <= 160 }, "every line fits a terminal")

        let json = try Self.run(["inspect", "--json", Self.sample + "hpke_envelope.cbor.hex"] + open)
        let nodes = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(nodes.first?["summary"] as? String == "DeviceResponse (6138 bytes; not verified)")

        var wrong = open
        wrong[wrong.firstIndex(of: "--nonce")! + 1] = "00"
        let refused = try Self.run(["inspect", Self.sample + "hpke_envelope.cbor.hex"] + wrong)
        #expect(refused.status == 2 && refused.stderr.contains("could not open the envelope (envelope.transcript_mismatch"), "\(refused.stderr)")
    }
}
