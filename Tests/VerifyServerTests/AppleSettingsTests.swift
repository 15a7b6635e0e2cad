import Foundation
import LoopbackClient
import Testing
import VerifyServer

/// Apple in-app is configured by merchantID, teamID and decryptionKeys together: a relying party that serves only web
/// or EU wallets sets none of them and the server starts without it; one or two of them is a mistake named at start.
@Suite("verify-server without Apple settings")
struct AppleSettingsTests {
    @Test("none of the three: the server starts, /readyz omits apple-app, creating one is 400; the web formats are offered")
    func startsWithoutApple() async throws {
        let key = TransactionAPITests.key("shop")
        try await TransactionAPITests.withServer([key], configure: { configuration in
            configuration.merchantID = ""
            configuration.teamID = ""
            configuration.decryptionKeyPaths = []
        }) { server, _ in
            let readiness = try await server.client.get("/readyz")
            #expect(readiness.status == 200, "ready without Apple keys: \(readiness.text)")
            let ready = try jsonObject(readiness)
            let formats = try #require(ready["formats"] as? [String])
            #expect(!formats.contains("apple-app"))
            #expect(formats.contains("annex-c") && formats.contains("openid4vp"), "\(formats)")
            for (format, status) in [("apple-app", 400), ("annex-c", 201), ("openid4vp", 201)] {
                let body = #"{"format":"\#(format)","origin":"https://shop.example","documents":\#(TransactionAPITests.documents)}"#
                let response = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer)
                #expect(response.status == status, "\(format): \(response.text)")
            }
        }
    }

    @Test("one or two of the three: a problem per missing setting, naming the other two; none or all three: no problem")
    func partialSettingsRefused() {
        func problems(merchant: String, team: String, keys: [String]) -> [String] {
            var configuration = ServerConfiguration()
            configuration.merchantID = merchant
            configuration.teamID = team
            configuration.decryptionKeyPaths = keys
            return configuration.problems.filter { $0.contains("apple-app needs") }
        }
        #expect(problems(merchant: "", team: "", keys: []).isEmpty)
        #expect(problems(merchant: "merchant.com.example", team: "ABCDE12345", keys: ["k.pem"]).isEmpty)
        let onlyMerchant = problems(merchant: "merchant.com.example", team: "", keys: [])
        #expect(onlyMerchant.count == 2)
        #expect(onlyMerchant.contains { $0.hasPrefix("teamID is missing") })
        #expect(onlyMerchant.contains { $0.hasPrefix("no decryption key configured") })
        #expect(problems(merchant: "", team: "ABCDE12345", keys: ["k.pem"]).map { $0.prefix(24) } == ["merchantID is missing (V"])
    }
}
