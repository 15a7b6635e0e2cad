import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// `request openid4vp --profile haip` keeps the profile in session.json, so `verify openid4vp` applies HAIP 1.0's
/// answer rules: the kit's `simulate openid4vp` answer verifies (exit 0), a plain `dc_api` answer is exit 1 with
/// `haip.encryption_required`, and the request is refused without a reader identity.
@Suite("mdocverify request openid4vp --profile haip")
struct HAIPCLITests {
    static let origin = "https://shop.example"
    static let requestJSON = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#

    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-haip-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `request openid4vp --profile haip` into `folder`/request with a reader identity (leaf and root in one file).
    static func request(in folder: String, extra: [String] = []) throws -> (run: MdocVerifyCLI.Run, out: String) {
        let reader = try TestReaderPKI()
        let cert = folder + "/reader-chain.pem"
        let key = folder + "/reader-key.pem"
        try (reader.identity.certificates[0].pemEncoded + reader.root.pemEncoded).write(toFile: cert, atomically: true, encoding: .utf8)
        try reader.identity.key.pkcs8PEM().write(toFile: key, atomically: true, encoding: .utf8)
        let policy = folder + "/policy.json"
        try requestJSON.write(toFile: policy, atomically: true, encoding: .utf8)
        let out = folder + "/request"
        let run = try MdocVerifyCLI.run(["request", "openid4vp", "--profile", "haip", "--origin", origin, "--request", policy, "--out", out,
                                         "--reader-cert", cert, "--reader-key", key] + extra)
        return (run, out)
    }

    static func caseVerifyArguments(_ wallet: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: wallet + "/case.json"))) as? [String: Any])
        let command = try #require(object["verify"] as? String)
        return Array(command.split(separator: " ").map(String.init).dropFirst())
    }

    @Test("request --profile haip → simulate openid4vp → verify openid4vp: exit 0, the HAIP checks pass; session.json keeps the profile")
    func roundTrip() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (created, out) = try Self.request(in: folder)
        #expect(created.status == 0, "\(created.stderr)")
        let dcRequest = try String(contentsOfFile: out + "/dc-request.json", encoding: .utf8)
        #expect(dcRequest.contains("openid4vp-v1-signed"))
        let session = try String(contentsOfFile: out + "/session.json", encoding: .utf8)
        #expect(session.contains("\"profile\"") && session.contains("\"haip\""))

        let wallet = folder + "/wallet"
        let simulated = try MdocVerifyCLI.run(["simulate", "openid4vp", "--dc-request", out + "/dc-request.json", "--origin", Self.origin,
                                               "--request", out + "/request.json", "--out", wallet])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let verified = try MdocVerifyCLI.run(try Self.caseVerifyArguments(wallet) + ["--json"])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(verified.stdout.contains("haip.encryption") && verified.stdout.contains("haip.presentation"))

        // A plain dc_api answer to the same request: the HAIP code, exit 1.
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: wallet + "/response.json"))) as? [String: Any])
        try #require(answer["data"] != nil)
        let dc = try #require(try JSONSerialization.jsonObject(with: Data(dcRequest.utf8)) as? [String: Any])
        let dataText = String(decoding: try JSONSerialization.data(withJSONObject: try #require(dc["data"])), as: UTF8.self)
        let request = try OpenID4VPRequest(protocolIdentifier: try #require(dc["protocol"] as? String), data: dataText, origin: Self.origin)
        let plainText = JSONValue.object([("protocol", .string("openid4vp-v1-signed")), ("data", .object([
            ("vp_token", .object([(request.queryID, .array([.string("oWd2ZXJzaW9u")]))])),
        ]))]).serialized()
        let plainPath = folder + "/plain.json"
        try plainText.write(toFile: plainPath, atomically: true, encoding: .utf8)
        let arguments = try Self.caseVerifyArguments(wallet).map { $0 == wallet + "/response.json" ? plainPath : $0 }
        #expect(arguments.contains(plainPath))
        let plain = try MdocVerifyCLI.run(arguments + ["--json"])
        #expect(plain.status == 1, "\(plain.stdout) \(plain.stderr)")
        #expect(plain.stdout.contains("haip.encryption_required"), "\(plain.stdout)")
    }

    @Test("--profile haip without a reader identity, with --response-mode dc_api, or with x509_san_dns: exit 2, naming the option")
    func refused() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = folder + "/policy.json"
        try Self.requestJSON.write(toFile: policy, atomically: true, encoding: .utf8)
        let noReader = try MdocVerifyCLI.run(["request", "openid4vp", "--profile", "haip", "--origin", Self.origin, "--request", policy,
                                              "--out", folder + "/none"])
        #expect(noReader.status == 2)
        #expect(noReader.stderr.contains("--reader-key and --reader-cert"), "\(noReader.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/none/session.json"))
        let plain = try Self.request(in: folder, extra: ["--response-mode", "dc_api"]).run
        #expect(plain.status == 2 && plain.stderr.contains("--response-mode"), "\(plain.stderr)")
        let sanDNS = try Self.request(in: folder, extra: ["--client-id-prefix", "x509_san_dns"]).run
        #expect(sanDNS.status == 2 && sanDNS.stderr.contains("x509_hash"), "\(sanDNS.stderr)")
    }
}
