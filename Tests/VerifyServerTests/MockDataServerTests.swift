import Foundation
import LoopbackClient
import MdocTesting
import Testing
import VerifyServer

/// Mock data from a development device (Apple's Wallet developer profile) through `POST /v1/verify`: refused with
/// `issuer.mock_data` (422) in production; in test mode verified (200) with the check line warning and assurance test.
@Suite("verify-server: mock data from a development device")
struct MockDataServerTests {
    /// Creates a request for `format`, has the kit's wallet answer it with the `mock-data` fault, and posts the answer.
    static func answer(_ format: String, testMode: Bool) async throws -> (status: Int, body: [String: Any]) {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let verified = try await ServerFixture.withServer(wallet.configuration(testMode: testMode), store: InMemoryRequestStore()) { server in
            let (id, body) = try SimulatedWalletTests.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody(format)))
            let response = format == "apple-app"
                ? try wallet.appleResponse(nonce: try #require(body["nonce"] as? String), faults: [.mockData])
                : try wallet.annexCResponse(encryptionInfo: try #require((body["data"] as? [String: Any])?["encryptionInfo"] as? String),
                                            faults: [.mockData])
            return try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
        }
        return (verified.status, try jsonObject(verified))
    }

    static func mockLine(_ body: [String: Any]) -> [String: Any]? {
        (body["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "issuer.mock_data" }
    }

    @Test("production: 422 with issuer.mock_data as the only error", arguments: ["apple-app", "annex-c"])
    func production(format: String) async throws {
        let (status, body) = try await Self.answer(format, testMode: false)
        #expect(status == 422, "\(body)")
        let codes = (body["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes == ["issuer.mock_data"])
        #expect(body["assurance"] as? String == "production")
        #expect((body["documents"] as? [Any])?.isEmpty != false)
        #expect(Self.mockLine(body)?["status"] as? String == "fail")
    }

    @Test("test mode: 200, assurance test, the elements, and the mock line as a warning", arguments: ["apple-app", "annex-c"])
    func testMode(format: String) async throws {
        let (status, body) = try await Self.answer(format, testMode: true)
        #expect(status == 200, "\(body)")
        #expect(body["assurance"] as? String == "test")
        #expect((body["documents"] as? [[String: Any]])?.count == 1)
        #expect(Self.mockLine(body)?["status"] as? String == "warn")
    }
}
