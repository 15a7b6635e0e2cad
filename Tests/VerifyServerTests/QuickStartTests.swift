import CryptoCore
import Foundation
import LoopbackClient
import MdocTesting
import Testing
import TestSupport

/// The README's server quick start, step by step: the example configuration, `POST /v1/requests`, the kit's
/// `simulate apple-app` for the returned nonce (the built `mdocverify`), `POST /v1/verify` → 200.
@Suite("README quick start: create, simulate, verify")
struct QuickStartTests {
    static let requestFile = "docs/quickstart-request.json"
    static let kitIACA = "Certificates/test/mdoctesting-seed-1-iaca.pem"

    /// The README's `simulate` line, with the nonce it read from the server.
    static func simulateArguments(nonce: String, out: String) -> [String] {
        ["simulate", "apple-app", "--merchant-key", "TestVectors/apple/in-app-sample/merchant_encryption.key",
         "--merchant-id", "PassKit_Identity_Test_Merchant_ID", "--team-id", "PassKit_Identity_Test_Team_ID",
         "--nonce", nonce, "--request", requestFile, "--out", out]
    }

    @Test("the example configuration: POST /v1/requests, simulate for its nonce, POST /v1/verify → 200 verified; again → 409")
    func quickStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quick-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The README's configuration file, on a free port with its store in a temporary folder; no fetch of the kit's
        // (offline) status list, which would only turn one warning's reason from "unreachable" into "not fetched".
        let server = try ServerProcess.start(environment: [
            "VERIFY_SERVER_CONFIG": "docs/verify-server.example.yaml", "VERIFY_SERVER_PORT": "0",
            "VERIFY_SERVER_STORE_URL": "sqlite:" + folder.appendingPathComponent("verify-server.sqlite").path,
            "VERIFY_SERVER_REVOCATION_FETCH": "false",
        ])
        defer { server.stop() }
        let client = try await server.readyClient()

        let created = try await client.post("/v1/requests", json: VectorFiles.text(Self.requestFile))
        #expect(created.status == 201, "\(created.text)")
        let request = try jsonObject(created)
        let requestId = try #require(request["requestId"] as? String)
        let nonce = try #require(request["nonce"] as? String)

        let wallet = folder.appendingPathComponent("wallet").path
        let simulated = try MdocVerifyCLI.run(Self.simulateArguments(nonce: nonce, out: wallet))
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let response = try Data(contentsOf: URL(fileURLWithPath: wallet + "/response.cbor")).base64EncodedString()

        let verified = try await client.post("/v1/verify", json: verifyJSON(requestId, response: response))
        #expect(verified.status == 200, "\(verified.text)")
        let report = try jsonObject(verified)
        #expect(report["verified"] as? Bool == true)
        let document = try #require((report["documents"] as? [[String: Any]])?.first)
        let elements = try #require((document["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
        #expect(Set(elements.keys) == ["family_name", "age_over_21"])
        let again = try await client.post("/v1/verify", json: verifyJSON(requestId, response: response))
        #expect(again.status == 409)
    }

    @Test("the README shows these steps: the example configuration, the request file, the simulate line, the nonce")
    func readmeShowsTheSteps() throws {
        let readme = VectorFiles.text("README.md").replacingOccurrences(of: " \\\n   ", with: " ")
        #expect(readme.contains("swift run verify-server --config docs/verify-server.example.yaml"))
        #expect(readme.contains("curl -s -XPOST localhost:8080/v1/requests -d @\(Self.requestFile) | tee created.json"))
        let simulate = "$B " + Self.simulateArguments(nonce: "\"$NONCE\"", out: "wallet").joined(separator: " ")
        #expect(readme.contains(simulate), "README lacks: \(simulate)")
        #expect(readme.contains(#"-d "{\"requestId\":\"$REQUEST_ID\",\"response\":\"$(base64 -w0 wallet/response.cbor)\"}""#))
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
