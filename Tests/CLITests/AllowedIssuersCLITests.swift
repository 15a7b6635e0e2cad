import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// The request's issuer allow-list on the command line: `request apple-app` offers it narrowed to `--trust`, and
/// `verify apple-app --request` rejects a document from another trusted issuer with `policy.issuer_not_allowed`.
@Suite("mdocverify: the request's issuer allow-list (allowedIssuers)")
struct AllowedIssuersCLITests {
    static let merchantID = "merchant.com.example"
    static let teamID = "ABCDE12345"
    static let nonce = String(repeating: "ab", count: 32)
    static let element = "org.iso.18013.5.1:family_name"

    /// Two kit issuers: `issuer` (seed 1) answered the request; `other` (seed 2) is trusted too.
    struct Case {
        let folder: String
        let privateKey: String
        var issuerIACA: String { folder + "/issuer/iaca.pem" }
        var otherIACA: String { folder + "/other/iaca.pem" }
        var response: String { folder + "/issuer/response.cbor" }

        func keyID(_ path: String) throws -> String {
            let certificate = try Certificate(pemEncoded: try String(contentsOfFile: path, encoding: .utf8))
            return Base64URL.encode(try #require(IssuerIdentifiers.identifier(of: certificate)))
        }

        /// Writes a request for the disclosed element with `allowed` as its allow-list (raw JSON strings).
        func request(_ allowed: [String], name: String = "request.json") throws -> String {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ",")
            let text = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}],"allowedIssuers":[\#(list)]}"#
            let path = folder + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func verify(request: String) throws -> MdocVerifyCLI.Run {
            try MdocVerifyCLI.run(["verify", "apple-app", "--response", response, "--private-key", privateKey, "--merchant-id", merchantID,
                                   "--team-id", teamID, "--nonce", nonce, "--trust", issuerIACA, "--trust", otherIACA,
                                   "--request", request, "--json"])
        }
    }

    static func make() throws -> Case {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("allowed-issuers-\(UUID().uuidString)").path
        let keygen = try MdocVerifyCLI.run(["keygen", "--out", folder + "/keys"])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        for (name, seed) in [("issuer", "1"), ("other", "2")] {
            let run = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", folder + "/keys/merchant-public.pem",
                                             "--merchant-id", merchantID, "--team-id", teamID, "--nonce", nonce, "--seed", seed,
                                             "--elements", element, "--out", folder + "/" + name])
            #expect(run.status == 0, "\(run.stderr)")
        }
        return Case(folder: folder, privateKey: folder + "/keys/merchant-private.pem")
    }

    static func codes(_ run: MdocVerifyCLI.Run) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (report["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test("verify apple-app --request: another trusted issuer's identifier → policy.issuer_not_allowed; the document's → verified; empty → any")
    func enforced() throws {
        let kit = try Self.make()
        defer { try? FileManager.default.removeItem(atPath: kit.folder) }
        let (issuer, other) = (try kit.keyID(kit.issuerIACA), try kit.keyID(kit.otherIACA))
        #expect(issuer != other)

        let refused = try kit.verify(request: try kit.request([other]))
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(try Self.codes(refused) == ["policy.issuer_not_allowed"])
        #expect(refused.stdout.contains(issuer), "the report line names the document's issuer identifier")

        let allowed = try kit.verify(request: try kit.request([other, issuer]))
        #expect(allowed.status == 0, "\(allowed.stdout) \(allowed.stderr)")
        let any = try kit.verify(request: try kit.request([]))
        #expect(any.status == 0, "\(any.stdout) \(any.stderr)")
        // The same identifier as colon-separated hex, as openssl prints it.
        let hex = try #require(Base64URL.decode(issuer)).map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(try kit.verify(request: try kit.request([hex])).status == 0)
    }

    @Test("request apple-app offers the allow-list narrowed to --trust; an identifier no anchor has refuses the request")
    func requestApple() throws {
        let kit = try Self.make()
        defer { try? FileManager.default.removeItem(atPath: kit.folder) }
        let other = try kit.keyID(kit.otherIACA)
        let out = kit.folder + "/req"
        let created = try MdocVerifyCLI.run(["request", "apple-app", "--request", try kit.request([other]), "--merchant-id", Self.merchantID,
                                             "--team-id", Self.teamID, "--trust", kit.issuerIACA, "--trust", kit.otherIACA, "--out", out])
        #expect(created.status == 0, "\(created.stderr)")
        let app = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/app-request.json"))) as? [String: Any])
        #expect(app["issuerIdentifiers"] as? [String: [String]] == ["org.iso.18013.5.1.mDL": [other]])

        // The operator trusts only the document's issuer now: the other identifier names no anchor.
        let refused = try MdocVerifyCLI.run(["request", "apple-app", "--request", try kit.request([other]), "--merchant-id", Self.merchantID,
                                             "--team-id", Self.teamID, "--trust", kit.issuerIACA, "--out", kit.folder + "/req2"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("input.malformed: allowedIssuers[0]") && refused.stderr.contains("no trust anchor"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: kit.folder + "/req2/session.json"))
    }

    @Test("a malformed allow-list in --request is a usage error naming the entry: not base64url/hex, 65 bytes, 1,001 entries, a repeat")
    func malformed() throws {
        let kit = try Self.make()
        defer { try? FileManager.default.removeItem(atPath: kit.folder) }
        let issuer = try kit.keyID(kit.issuerIACA)
        let long = Base64URL.encode([UInt8](repeating: 7, count: 65))
        let many = (0...1000).map { Base64URL.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }
        let cases: [([String], String)] = [
            ([issuer, "not base64!"], "allowedIssuers[1] is neither base64url nor hex"),
            (["0a:b"], "allowedIssuers[0] is neither base64url nor hex"),
            ([long], "allowedIssuers[0] is 65 bytes"),
            (many, "allowedIssuers names 1001 issuers; at most 1000"),
            ([issuer, issuer], "allowedIssuers[1] repeats allowedIssuers[0]"),
        ]
        for (list, message) in cases {
            let run = try kit.verify(request: try kit.request(list))
            #expect(run.status == 2, "\(message): \(run.stdout)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(!run.stderr.contains("not base64!"), "the entry is not echoed")
        }
    }
}

extension AllowedIssuersCLITests {
    @Test("request annex-c and request openid4vp carry the allow-list narrowed to --trust (requestInfo, trusted_authorities)")
    func webRequests() throws {
        let kit = try Self.make()
        defer { try? FileManager.default.removeItem(atPath: kit.folder) }
        let other = try kit.keyID(kit.otherIACA)
        let request = try kit.request([other])
        let trust = ["--trust", kit.issuerIACA, "--trust", kit.otherIACA]
        let annexC = try MdocVerifyCLI.run(["request", "annex-c", "--origin", "https://shop.example", "--request", request,
                                            "--out", kit.folder + "/annex-c"] + trust)
        #expect(annexC.status == 0, "\(annexC.stderr)")
        let data = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: kit.folder + "/annex-c/data.json"))) as? [String: Any])
        let text = try #require(data["deviceRequest"] as? String)
        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(text)))
        #expect(deviceRequest.docRequests.map(\.itemsRequest.issuerIdentifiers) == [[try #require(Base64URL.decode(other))]])

        let openID4VP = try MdocVerifyCLI.run(["request", "openid4vp", "--origin", "https://shop.example", "--request", request,
                                               "--out", kit.folder + "/openid4vp"] + trust)
        #expect(openID4VP.status == 0, "\(openID4VP.stderr)")
        let dcRequest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: kit.folder + "/openid4vp/dc-request.json"))) as? [String: Any])
        let dcql = try #require((dcRequest["data"] as? [String: Any])?["dcql_query"] as? [String: Any])
        let authorities = try #require((dcql["credentials"] as? [[String: Any]])?.first?["trusted_authorities"] as? [[String: Any]])
        #expect(authorities.first?["type"] as? String == "aki")
        #expect(authorities.first?["values"] as? [String] == [other])

        // Without --trust the embedded production bundle is the store: a kit issuer is none of its anchors.
        let refused = try MdocVerifyCLI.run(["request", "openid4vp", "--origin", "https://shop.example", "--request", request,
                                             "--out", kit.folder + "/refused"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("no trust anchor"), "\(refused.stderr)")
    }
}
