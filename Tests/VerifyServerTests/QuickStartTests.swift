import CryptoCore
import Foundation
import LoopbackClient
import MdocTesting
import Testing
import TestSupport

/// The README's server quick start, step by step: an API key from `verify-server --new-api-key`, the example
/// configuration with the key's SHA-256, `POST /v1/transactions` with the key, the kit's `simulate apple-app` for the
/// returned nonce (the built `mdocverify`), the wallet-facing endpoint with the client secret → accepted, and
/// `GET /v1/transactions/{requestId}` with the key → verified.
@Suite("README quick start: key, create, simulate, answer, read")
struct QuickStartTests {
    static let requestFile = "docs/quickstart-request.json"
    static let kitIACA = "Certificates/test/mdoctesting-seed-1-iaca.pem"

    /// The README's `simulate` line, with the nonce it read from the server.
    static func simulateArguments(nonce: String, out: String) -> [String] {
        ["simulate", "apple-app", "--merchant-key", "TestVectors/apple/in-app-sample/merchant_encryption.key",
         "--merchant-id", "PassKit_Identity_Test_Merchant_ID", "--team-id", "PassKit_Identity_Test_Team_ID",
         // `--nonce=…` as in the README: a base64url nonce may begin with `-`, which a separate argument would make an option.
         "--nonce=" + nonce, "--request", requestFile, "--out", out]
    }

    /// `verify-server --new-api-key quickstart`'s output, and what the README's shell lines read from it: the key
    /// (`grep -o '^vsk_…'`) and `VERIFY_SERVER_API_KEYS` (`sed -n 's/^ *sha256: //p'`).
    static func newKey() throws -> (key: String, apiKeys: String) {
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["--new-api-key", "quickstart"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = listing.split(separator: "\n").map(String.init)
        let key = try #require(lines.first { $0.hasPrefix("vsk_") })
        let hash = try #require(lines.compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix("sha256: ") ? String(trimmed.dropFirst("sha256: ".count)) : nil
        }.first)
        return (key, #"[{"id": "quickstart", "sha256": "\#(hash)", "origins": ["https://shop.example"]}]"#)
    }

    @Test("the example configuration with a new API key: POST /v1/transactions, simulate for its nonce, the wallet endpoint → accepted (again → 409), GET the transaction → verified")
    func quickStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quick-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try Self.newKey()
        // The README's configuration file, on a free port with its store in a temporary folder; no fetch of the kit's
        // (offline) status list, which would only turn one warning's reason from "unreachable" into "not fetched".
        let server = try ServerProcess.start(environment: [
            "VERIFY_SERVER_CONFIG": "docs/verify-server.example.yaml", "VERIFY_SERVER_PORT": "0",
            "VERIFY_SERVER_STORE_URL": "sqlite:" + folder.appendingPathComponent("verify-server.sqlite").path,
            "VERIFY_SERVER_REVOCATION_FETCH": "false", "VERIFY_SERVER_API_KEYS": key.apiKeys,
        ])
        defer { server.stop() }
        let client = try await server.readyClient()
        let bearer = [("Authorization", "Bearer \(key.key)")]

        let created = try await client.send(method: .POST, path: "/v1/transactions", body: Array(VectorFiles.text(Self.requestFile).utf8),
                                            headers: bearer)
        #expect(created.status == 201, "\(created.text)")
        let request = try jsonObject(created)
        let requestId = try #require(request["requestId"] as? String)
        let secret = try #require(request["clientSecret"] as? String)
        let nonce = try #require(request["nonce"] as? String)

        let wallet = folder.appendingPathComponent("wallet").path
        let simulated = try MdocVerifyCLI.run(Self.simulateArguments(nonce: nonce, out: wallet))
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let response = try Data(contentsOf: URL(fileURLWithPath: wallet + "/response.cbor")).base64EncodedString()

        let answer = Array(#"{"response":"\#(response)"}"#.utf8)
        let accepted = try await client.send(method: .POST, path: "/v1/wallet/\(requestId)/response", body: answer,
                                             headers: [("X-Client-Secret", secret)])
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(accepted.text == #"{"status":"accepted"}"#)
        let again = try await client.send(method: .POST, path: "/v1/wallet/\(requestId)/response", body: answer,
                                          headers: [("X-Client-Secret", secret)])
        #expect(again.status == 409)

        let read = try await client.get("/v1/transactions/\(requestId)", headers: bearer)
        #expect(read.status == 200, "\(read.text)")
        let result = try jsonObject(read)
        #expect(result["status"] as? String == "verified")
        let report = try #require(result["report"] as? [String: Any])
        #expect(report["verified"] as? Bool == true)
        let document = try #require((report["documents"] as? [[String: Any]])?.first)
        let elements = try #require((document["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
        #expect(Set(elements.keys) == ["family_name", "age_over_21"])
    }

    @Test("the README shows these steps: the key, the example configuration, the request file, the simulate line, the answer, the read")
    func readmeShowsTheSteps() throws {
        let readme = VectorFiles.text("README.md").replacingOccurrences(of: " \\\n   ", with: " ")
        #expect(readme.contains(".build/debug/verify-server --new-api-key quickstart | tee api-key.txt"))
        #expect(readme.contains(#"export VERIFY_SERVER_API_KEYS="[{\"id\": \"quickstart\", \"sha256\": \"$(sed -n 's/^ *sha256: //p' api-key.txt)\", \"origins\": [\"https://shop.example\"]}]""#))
        #expect(readme.contains("API_KEY=$(grep -o '^vsk_[A-Za-z0-9_-]*' api-key.txt)"))
        #expect(readme.contains("swift run verify-server --config docs/verify-server.example.yaml"))
        #expect(readme.contains(#"curl -s -XPOST localhost:8080/v1/transactions -H "Authorization: Bearer $API_KEY" -d @\#(Self.requestFile) | tee created.json"#))
        let simulate = "$B " + Self.simulateArguments(nonce: "\"$NONCE\"", out: "wallet").joined(separator: " ")
        #expect(readme.contains(simulate), "README lacks: \(simulate)")
        #expect(readme.contains(#"curl -s -XPOST localhost:8080/v1/wallet/$REQUEST_ID/response -H "X-Client-Secret: $SECRET" -d "{\"response\":\"$(base64 -w0 wallet/response.cbor)\"}""#))
        #expect(readme.contains(#"curl -s localhost:8080/v1/transactions/$REQUEST_ID -H "Authorization: Bearer $API_KEY""#))
        let example = VectorFiles.text("docs/verify-server.example.yaml")
        #expect(example.contains("  - \(Self.kitIACA)\n"))
        #expect(example.contains("testMode: true"))
    }

    @Test("the shipped kit IACA is TestPKI(seed: 1)'s: same name, key and serial number, valid now")
    func kitIACAMatchesTheKit() throws {
        let shipped = try Certificate(pemEncoded: VectorFiles.text(Self.kitIACA))
        let kit = try TestPKI(seed: 1).iaca
        #expect(shipped.subject == kit.subject)
        #expect(shipped.subjectPublicKeyInfoDER == kit.subjectPublicKeyInfoDER)
        #expect(shipped.serialNumber == kit.serialNumber)
        #expect(shipped.notBefore <= Date() && Date() < shipped.notAfter)
    }
}
