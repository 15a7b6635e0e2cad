import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// `--nonce` of `simulate apple-app` and `verify apple-app`: hex, or base64url as verify-server hands nonces out.
@Suite("mdocverify --nonce takes hex or base64url")
struct NonceInputTests {
    static let sample = "TestVectors/apple/in-app-sample/"

    static func verifySample(nonce: String) throws -> MdocVerifyCLI.Run {
        try MdocVerifyCLI.run(["verify", "apple-app", "--response", sample + "hpke_envelope.cbor.hex",
                               "--private-key", sample + "merchant_encryption.key",
                               "--merchant-id", AppleSampleVector.merchantID, "--team-id", AppleSampleVector.teamID,
                               "--nonce", nonce, "--trust", "Certificates/test/apple-passkit-identity-test-issuer-root.pem",
                               "--at", "2022-06-01T00:00:00Z", "--allow-test-key"])
    }

    @Test("verify apple-app: Apple's sample nonce as hex, base64url and padded base64 verifies alike")
    func verifyEncodings() throws {
        let nonce = AppleSampleVector.nonce
        for text in [Hex.encode(nonce), Hex.encode(nonce).uppercased(), Base64URL.encode(nonce), Data(nonce).base64EncodedString()] {
            let run = try Self.verifySample(nonce: text)
            #expect(run.status == 0, "\(text): \(run.stdout) \(run.stderr)")
        }
        // Another nonce is still another nonce: the device signature covers it.
        var other = nonce
        other[0] ^= 1
        #expect(try Self.verifySample(nonce: Base64URL.encode(other)).status == 1)
    }

    @Test("a nonce that is neither, or hex with a digit missing, is a usage error naming the option (exit 2)",
          arguments: ["!!!", "abc", "0123456789abcdef0"])
    func refused(_ text: String) throws {
        let run = try Self.verifySample(nonce: text)
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stderr.contains("--nonce"), "\(run.stderr)")
    }

    @Test("a base64url nonce that begins with - is passed as --nonce=…, and the printed verify command does the same")
    func leadingDash() throws {
        let nonce = [UInt8(0xF8)] + (1 ..< 32).map { UInt8($0) }
        let text = Base64URL.encode(nonce)
        #expect(text.hasPrefix("-"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("nonce-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", Self.sample + "merchant_encryption.key",
                                               "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345",
                                               "--nonce=" + text, "--out", out])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("--nonce=\(text) "), "\(simulated.stdout)")
        let verified = try MdocVerifyCLI.run(["verify", "apple-app", "--response", out + "/response.cbor",
                                              "--private-key", Self.sample + "merchant_encryption.key",
                                              "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345",
                                              "--nonce=" + text, "--trust", out + "/iaca.pem", "--allow-test-key"])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    }

    @Test("simulate apple-app takes the server's base64url nonce and prints it back the same way (case.json, verify command)")
    func simulateBase64URL() throws {
        let nonce = (0 ..< 32).map { UInt8($0 * 7 & 0xFF) }
        let text = Base64URL.encode(nonce)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("nonce-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", Self.sample + "merchant_encryption.key",
                                               "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345",
                                               "--nonce", text, "--out", out])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("--nonce \(text) "), "\(simulated.stdout)")
        let caseJSON = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/case.json"))) as? [String: Any])
        #expect(caseJSON["nonce"] as? String == text)
        // The same response verifies with the nonce as base64url and as hex.
        for given in [text, Hex.encode(nonce)] {
            let verified = try MdocVerifyCLI.run(["verify", "apple-app", "--response", out + "/response.cbor",
                                                  "--private-key", Self.sample + "merchant_encryption.key",
                                                  "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345",
                                                  "--nonce", given, "--trust", out + "/iaca.pem", "--allow-test-key"])
            #expect(verified.status == 0, "\(given): \(verified.stdout) \(verified.stderr)")
        }
    }
}
