import Foundation
import LoopbackClient
import ServiceLifecycle
import Testing
import VerifyServer

/// A store that accepts its schema and then never answers (a database that went away).
struct StallingStore: RequestStore {
    var kind: String { "stalling" }
    var services: [any Service] { [] }
    func prepare() async throws {}
    func insert(_ request: StoredRequest, deadline: Date) async throws { try await stall() as Void }
    func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome { try await stall() }
    func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws { try await stall() as Void }
    func markFetched(id: String, now: Date) async throws -> Bool { try await stall() }
    func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] { try await stall() }
    func settleWebhook(id: String, attempts: Int, retryAt: Date?) async throws { try await stall() as Void }
    func webhookBacklog() async throws -> WebhookBacklog { try await stall() }
    func purgeWebhooks(queuedBefore cutoff: Date) async throws -> Int { try await stall() }
    func lookup(id: String) async throws -> StoredRequest? { try await stall() }
    func outstanding(apiKeyID: String, now: Date) async throws -> KeyOutstanding { try await stall() }
    func purge(expiredBefore cutoff: Date) async throws -> Int { try await stall() }
    func eraseState(expiredBefore cutoff: Date) async throws -> Int { try await stall() }
    func vicalIssueIDs() async throws -> [String: UInt64] { try await stall() }
    func recordVICALIssueID(provider: String, issueID: UInt64) async throws { try await stall() as Void }
    func ping() async throws { try await stall() as Void }

    private func stall<T>() async throws -> T {
        try await Task.sleep(for: .seconds(3600))
        throw RequestStoreError("unreachable")
    }
}

@Suite("verify-server when the request store stops answering, and purging")
struct StoreOutageTests {
    /// The store's deadline passes after a short pause instead of `storeTimeout`: a stalled operation times out
    /// quickly, while one that answers at once (the schema step at start) is not raced by a deadline that has already
    /// passed (which made start-up fail under load).
    static let hooks = ServerHooks(storeDeadline: { _ in try await Task.sleep(for: .milliseconds(200)) })

    /// `/readyz` once the store monitor's ping has timed out (it pings every second), or its last answer.
    static func untilNotReady(_ server: RunningServer, method: String = "GET") async throws -> LoopbackHTTPClient.Response {
        var answer = try await server.client.send(method: method == "HEAD" ? .HEAD : .GET, path: "/readyz", body: nil)
        for _ in 0..<100 where answer.status == 200 {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await server.client.send(method: method == "HEAD" ? .HEAD : .GET, path: "/readyz", body: nil)
        }
        return answer
    }

    @Test("/readyz says not ready (503) once the store's ping times out; create and verify answer 503 store.unavailable instead of hanging")
    func stalled() async throws {
        try await ServerFixture.withServer(store: StallingStore(), hooks: Self.hooks) { server in
            let ready = try await Self.untilNotReady(server)
            #expect(ready.status == 503)
            #expect(try jsonObject(ready)["status"] as? String == "not_ready")
            #expect((try jsonObject(ready)["store"] as? [String: Any])?["reachable"] as? Bool == false)
            let live = try await server.client.get("/healthz")
            #expect(live.status == 200)

            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            #expect(created.status == 503)
            #expect(try errorCode(created) == "store.unavailable")
            let verified = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(StoredRequest.newID()))
            #expect(verified.status == 503)
            #expect(try errorCode(verified) == "store.unavailable")
        }
    }

    @Test("/readyz never waits on the store: with a store that hangs past any deadline it answers at once, from the last check, with its time and age")
    func readinessNeverWaits() async throws {
        let never = ServerHooks(storeDeadline: { _ in try await Task.sleep(for: .seconds(3600)) })
        try await ServerFixture.withServer(store: StallingStore(), hooks: never) { server in
            let ready = try await server.client.get("/readyz")
            #expect(ready.status == 200, "\(ready.text)")
            let store = try #require(try jsonObject(ready)["store"] as? [String: Any])
            #expect(store["reachable"] as? Bool == true)
            #expect(store["checkedAt"] is String && store["checkAgeSeconds"] is Double, "\(store)")
        }
    }

    @Test("purging deletes requests expired more than one TTL ago; a later attempt on one is nonce.unknown")
    func purge() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(clock: clock) { server in
            let old = AppleSample.request(now: clock.now.addingTimeInterval(-1000), ttl: 300)
            let recent = AppleSample.request(now: clock.now.addingTimeInterval(-400), ttl: 300)
            try await server.store.insert(old)
            try await server.store.insert(recent)
            #expect(try await server.app.purgeExpiredRequests() == 1)
            let purged = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(old.id))
            #expect(purged.status == 404)
            let kept = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(recent.id))
            #expect(kept.status == 410)
            #expect(try await server.client.get("/metrics").text.contains("verify_server_store_purged_requests_total 1"))
        }
    }
}
