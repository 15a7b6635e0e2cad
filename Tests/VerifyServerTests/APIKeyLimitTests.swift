import Foundation
import Testing
@testable import VerifyServer

/// Issue 47 (3): a relying party's backend is not "one client". Its transactions count per API key, in the store
/// across instances, and its requests against the key's rate, not its address's.
@Suite("verify-server limits per API key: outstanding transactions across instances, rate apart from the address's")
struct APIKeyLimitTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func request(_ id: String, key: String?, expiresIn seconds: TimeInterval) -> StoredRequest {
        StoredRequest(id: id, format: .annexC, policy: TransactionStoreTests.transaction(now: now).policy, state: .strings(["k": "v"]),
                      createdAt: now, expiresAt: now.addingTimeInterval(seconds), clientSecretHash: TransactionStoreTests.hash, apiKeyID: key)
    }

    /// Every store counts a key's open transactions: not another key's, not consumed, not expired.
    static func checkCount(_ store: any RequestStore) async throws {
        try await store.prepare()
        let tag = UUID().uuidString
        let (a, b) = ("a-\(tag)", "b-\(tag)")
        for request in [request("1-\(tag)", key: a, expiresIn: 300), request("2-\(tag)", key: a, expiresIn: 100),
                        request("3-\(tag)", key: a, expiresIn: 200), request("4-\(tag)", key: b, expiresIn: 300),
                        request("5-\(tag)", key: a, expiresIn: -1)] {
            try await store.insert(request)
        }
        #expect(try await store.outstanding(apiKeyID: a, now: now) == KeyOutstanding(count: 3, earliestExpiry: now.addingTimeInterval(100)))
        _ = try await store.consume(id: "2-\(tag)", clientSecretHash: TransactionStoreTests.hash, now: now, deadline: .distantFuture)
        #expect(try await store.outstanding(apiKeyID: a, now: now) == KeyOutstanding(count: 2, earliestExpiry: now.addingTimeInterval(200)))
        #expect(try await store.outstanding(apiKeyID: a, now: now.addingTimeInterval(250)).count == 1)
        #expect(try await store.outstanding(apiKeyID: "none-\(tag)", now: now) == KeyOutstanding(count: 0, earliestExpiry: nil))
    }

    @Test("memory, SQLite and PostgreSQL count a key's open transactions")
    func storesCount() async throws {
        try await ServerFixture.eachStore { try await Self.checkCount($0) }
    }

    @Test("two instances on one store: the key's cap counts both; the per-address cap does not apply to the key; an expiry frees a slot")
    func outstandingAcrossInstances() async throws {
        let key = TransactionAPITests.key("shop")
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var configuration = wallet.configuration()
        configuration.apiKeys = [key.entry]
        configuration.maxOutstandingRequestsPerKey = 3
        configuration.maxOutstandingRequestsPerClient = 1
        let settings = configuration
        let clock = TestClock()
        try await WebhookOutboxTests.withSQLiteStore { store in
            try await ServerFixture.withServer(configuration, store: store, clock: clock) { first in
                try await ServerFixture.withServer(settings, store: store, clock: clock) { second in
                    for server in [first, first, second] {
                        let created = try await TransactionAPITests.create(server, key)
                        #expect(created.status == 201, "\(created.text)")
                    }
                    let refused = try await TransactionAPITests.create(second, key)
                    #expect(refused.status == 429)
                    #expect(try errorCode(refused) == "requests.too_many")
                    #expect(refused.text.contains("maxOutstandingRequestsPerKey"))
                    let retryAfter = refused.header("Retry-After").flatMap { Int($0) } ?? 0
                    #expect((1 ... 300).contains(retryAfter))
                    #expect(try await second.client.get("/metrics").text
                        .contains(#"verify_server_limit_refusals_total{limit="outstanding_per_key"} 1"#))
                    clock.advance(by: settings.requestTTL + 1)
                    #expect(try await TransactionAPITests.create(first, key).status == 201)
                }
            }
        }
    }

    @Test("a key's requests count against apiKeyRateLimit, not the address's rateLimit; an unknown key counts against the address")
    func ratePerKey() async throws {
        let key = TransactionAPITests.key("shop")
        try await TransactionAPITests.withServer([key], configure: { configuration in
            configuration.rateLimit = 1
            configuration.rateLimitBurst = 1
            configuration.apiKeyRateLimit = 1
            configuration.apiKeyRateLimitBurst = 3
        }) { server, _ in
            // One address: three keyed requests pass although the address's burst is one.
            for _ in 0 ..< 3 { #expect(try await TransactionAPITests.create(server, key).status == 201) }
            let overKey = try await TransactionAPITests.create(server, key)
            #expect(overKey.status == 429)
            #expect(overKey.text.contains("this API key") && overKey.text.contains("apiKeyRateLimit"))
            // The address's own bucket is untouched by the key's requests: one request without a valid key passes …
            let wrong = TransactionAPITests.Key(entry: key.entry, text: "not-the-key")
            #expect(try await TransactionAPITests.create(server, wrong).status == 401)
            // … and the next is over the address's limit.
            let overAddress = try await TransactionAPITests.create(server, wrong)
            #expect(overAddress.status == 429)
            #expect(overAddress.text.contains("this client") && overAddress.text.contains("rateLimit, rateLimitBurst"))
            let metrics = try await server.client.get("/metrics").text
            #expect(metrics.contains(#"verify_server_limit_refusals_total{limit="rate_per_key"} 1"#))
            #expect(metrics.contains(#"verify_server_limit_refusals_total{limit="rate_per_client"} 1"#))
        }
    }
}
