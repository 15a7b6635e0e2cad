import Foundation
import LoopbackClient
import Synchronization
import Testing
@testable import VerifyServer

@Suite("verify-server reloads API keys (with their origins) and webhook secrets without a restart")
struct CredentialReloadTests {
    @Test("a rotated key works at once and the removed one is refused, CORS follows the new keys' origins; a configuration with a problem, or one that turns the webhook on, keeps what is in use")
    func rotate() async throws {
        let old = TransactionAPITests.key("shop")
        let new = TransactionAPITests.key("shop-2026", origins: ["https://new-shop.example"])
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var first = wallet.configuration()
        first.apiKeys = [old.entry]
        let configuration = first
        let next = Mutex<(ServerConfiguration, [String])>((configuration, []))
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore(), rereadConfiguration: { next.withLock { $0 } }) { server in
            #expect(try await TransactionAPITests.create(server, old).status == 201)
            #expect(try await TransactionAPITests.create(server, new).status == 401)
            func preflight(_ origin: String) async throws -> String? {
                try await server.client.send(method: .OPTIONS, path: "/v1/wallet/x/response", body: [],
                                             headers: [("Origin", origin), ("Access-Control-Request-Method", "POST")])
                    .header("Access-Control-Allow-Origin")
            }
            #expect(try await preflight(SimulatedWallet.origin) == SimulatedWallet.origin)

            var rotated = configuration
            rotated.apiKeys = [new.entry]
            next.withLock { $0 = (rotated, []) }
            #expect(server.app.reloadCredentials())
            #expect(try await TransactionAPITests.create(server, old).status == 401)
            #expect(try await TransactionAPITests.create(server, new, origin: "https://new-shop.example").status == 201)
            #expect(try await preflight(SimulatedWallet.origin) == nil)
            #expect(try await preflight("https://new-shop.example") == "https://new-shop.example")

            // A problem in the file (here a key id with a space), a read problem, or a webhook turned on: nothing changes.
            var broken = rotated
            broken.apiKeys = [old.entry, APIKey(id: "bad id", sha256: old.entry.sha256, origins: [SimulatedWallet.origin], formats: [])]
            next.withLock { $0 = (broken, []) }
            #expect(!server.app.reloadCredentials())
            next.withLock { $0 = (configuration, ["config file cannot be read"]) }
            #expect(!server.app.reloadCredentials())
            var webhook = configuration
            webhook.webhookURL = "https://hooks.example/verify"
            webhook.webhookSecrets = [try WebhookSecret(text: WebhookTests.secretText)]
            next.withLock { $0 = (webhook, []) }
            #expect(!server.app.reloadCredentials())
            #expect(try await TransactionAPITests.create(server, old).status == 401)
            #expect(try await TransactionAPITests.create(server, new, origin: "https://new-shop.example").status == 201)
        }
    }

    @Test("a server made without a way to re-read its configuration keeps its keys")
    func nothingToReread() async throws {
        try await ServerFixture.withServer { server in
            #expect(!server.app.reloadCredentials())
        }
    }
}
