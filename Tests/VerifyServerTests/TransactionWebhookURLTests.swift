import Foundation
import LoopbackClient
import MdocModel
import RevocationFetch
import Verifier
import Testing
import TestSupport
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

    @Test("only a host webhookAllow names: a listed name (any case) or an address in a listed network is taken; an unlisted name, a look-alike suffix, loopback, private and link-local addresses, user information, a fragment, a host two URL parsers could read apart (`%`, `\\`, a space), over 2,048 bytes, not an absolute URL or another scheme are 400, nothing stored")
    func allowListed() async throws {
        try await WebhookTests.withServer(port: 9, allow: ["hooks.example", "10.9.0.0/16"]) { server, _, key in
            func create(_ url: JSONValue) async throws -> LoopbackHTTPClient.Response {
                let body = #"{"format":"annex-c","documents":\#(TransactionAPITests.documents),"webhookURL":\#(url.serialized())}"#
                return try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer)
            }
            let long = "https://hooks.example/" + String(repeating: "a", count: 2_048)
            for url in ["https://elsewhere.example/in", "https://hooks.example.evil.test/in", "https://evilhooks.example/in",
                        "http://127.0.0.1:9/hook", "https://10.1.2.3/hook", "https://[::1]/hook", "https://169.254.169.254/latest",
                        "https://user:pw@hooks.example/in", "https://hooks.example/in#x", long, "not a url", "/relative",
                        "ftp://hooks.example/", "https://hooks%2Eexample/in", #"https://evil.test\@hooks.example/in"#,
                        #"https://hooks.example\.evil.test/in"#, "https://hooks.example /in", "https://hooks.example:/in",
                        "https://hooks.example:123456/in", "https://hooks.example/in\u{1B}[31m"] {
                let answer = try await create(.string(url))
                #expect(answer.status == 400, "\(url): \(answer.text)")
                #expect(try errorCode(answer) == "input.malformed", "\(url)")
                #expect(!answer.text.contains("user:pw"), "the answer repeats the credentials")
            }
            #expect(try await create(.int(42)).status == 400)
            #expect(try await server.store.outstanding(apiKeyID: key.entry.id, now: Date()).count == 0, "a refused create stored nothing")
            for url in ["https://hooks.example/in", "https://HOOKS.example/in?order=7", "https://10.9.1.1/hook", "https://hooks.example:8443/in"] {
                let answer = try await create(.string(url))
                #expect(answer.status == 201, "\(url): \(answer.text)")
            }
        }
    }

    @Test("an event queued for a host the operator has since taken out of webhookAllow is refused at delivery and removed; still listed, it is attempted")
    func removedFromAllow() async throws {
        // A closed port: an attempt that posts fails to connect and is rescheduled; a refused one is removed unposted.
        let port = try #require(LoopbackPort.free())
        for (allow, kept) in [("hooks.example", false), ("127.0.0.0/8", true)] {
            let store = InMemoryRequestStore()
            let now = Date()
            let stored = TransactionStoreTests.transaction(now: now)
            var event = WebhookEvent(id: "msg_\(stored.id)", requestId: stored.id, body: "{}", createdAt: now)
            event.url = "http://127.0.0.1:\(port)/hook"
            try await store.insert(stored)
            _ = try await store.consume(id: stored.id, clientSecretHash: TransactionStoreTests.hash, now: now, deadline: .distantFuture)
            try await store.recordResult(id: stored.id, result: StoredResult(verified: true, report: "{}"), webhook: event)
            let sender = WebhookSender(url: "https://hooks.example/in", secrets: { [] }, includeReport: false,
                                       allow: [try #require(FetchDestination(allow))], store: store,
                                       clock: TestClock(now).serverClock, logger: ServerFixture.quietLogger)
            let claimed = try await store.claimWebhooks(now: now, leaseUntil: now.addingTimeInterval(45), limit: 10)
            #expect(claimed.map(\.url) == [event.url])
            await sender.attempt(try #require(claimed.first))
            #expect(try await store.webhookBacklog().count == (kept ? 1 : 0), "webhookAllow \(allow)")
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
