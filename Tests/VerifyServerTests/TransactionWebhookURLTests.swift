import Foundation
import LoopbackClient
import Verifier
import Testing
@testable import VerifyServer

/// A transaction's own webhook destination (`webhookURL` in `POST /v1/transactions`, issue 47): its event goes there,
/// signed as the configured webhook's; every other transaction's to the configured URL.
@Suite("verify-server: a transaction's own webhookURL", .serialized)
struct TransactionWebhookURLTests {
    @Test("one transaction names its own receiver: its event goes there, signed; the next, without one, to the configured receiver")
    func ownDestination() async throws {
        let configured = WebhookReceiver(statuses: [204]), own = WebhookReceiver(statuses: [204])
        try await configured.run { configuredPort in
            try await own.run { ownPort in
                try await WebhookTests.withServer(port: configuredPort) { server, wallet, key in
                    let first = try await WebhookTests.answered(server, wallet, key, extra: #""webhookURL":"http://127.0.0.1:\#(ownPort)/hook""#)
                    var ownDeliveries = own.received.makeAsyncIterator()
                    let delivered = try #require(await ownDeliveries.next())
                    #expect(delivered.headers["webhook-id"] == "msg_\(first)")
                    #expect(try WebhookTests.signatureValid(delivered))

                    let second = try await WebhookTests.answered(server, wallet, key)
                    var configuredDeliveries = configured.received.makeAsyncIterator()
                    let other = try #require(await configuredDeliveries.next())
                    // The configured receiver never saw the first transaction's event: its first delivery is the second's.
                    #expect(other.headers["webhook-id"] == "msg_\(second)")
                }
            }
        }
    }

    @Test("refused at create, nothing stored: user information, a fragment, over 2,048 bytes, not an absolute URL, another scheme, a private, loopback or link-local address not in webhookAllow")
    func refused() async throws {
        try await WebhookTests.withServer(port: 9, allow: []) { server, _, key in
            let long = "https://hooks.example/" + String(repeating: "a", count: 2_048)
            for url in ["https://user:pw@hooks.example/in", "https://hooks.example/in#x", long, "not a url", "/relative",
                        "http://127.0.0.1:9/hook", "https://10.1.2.3/hook", "https://[::1]/hook", "https://169.254.169.254/latest", "ftp://hooks.example/"] {
                let body = #"{"format":"annex-c","documents":\#(TransactionAPITests.documents),"webhookURL":\#(JSONValue.string(url).serialized())}"#
                let answer = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer)
                #expect(answer.status == 400, "\(url): \(answer.text)")
                #expect(try errorCode(answer) == "input.malformed", "\(url)")
                #expect(!answer.text.contains("user:pw"), "the answer repeats the credentials")
            }
            let wrongType = #"{"format":"annex-c","documents":\#(TransactionAPITests.documents),"webhookURL":42}"#
            #expect(try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(wrongType.utf8), headers: key.bearer).status == 400)
            // Nothing was stored: the key has no open transaction.
            #expect(try await server.store.outstanding(apiKeyID: key.entry.id, now: Date()).count == 0)
        }
    }

    @Test("without the server's webhook a webhookURL is refused: nothing would sign its event")
    func needsTheWebhook() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let key = TransactionAPITests.key("shop")
        var configuration = wallet.configuration(testMode: true)
        configuration.apiKeys = [key.entry]
        try await ServerFixture.withServer(configuration) { server in
            let body = #"{"format":"annex-c","documents":\#(TransactionAPITests.documents),"webhookURL":"https://hooks.example/in"}"#
            let answer = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer)
            #expect(answer.status == 400 && answer.text.contains("webhookSecretFile"), "\(answer.text)")
        }
    }
}
