import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import VerifyServer

/// The HTTP API over a real loopback socket, with Apple's sample in test mode (in-memory store).
@Suite("verify-server over HTTP: create, verify, replay, expiry, unknown, body errors")
struct EndToEndTests {
    @Test("POST /v1/requests answers 201 with a request ID, a fresh 32-byte base64url nonce and the expiry")
    func createsRequests() async throws {
        let clock = TestClock(VectorFiles.date("2030-01-01T00:00:00Z"))
        try await ServerFixture.withServer(clock: clock) { server in
            let first = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let second = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            #expect(first.status == 201, "\(first.text)")
            let a = try jsonObject(first), b = try jsonObject(second)
            let nonce = try #require(a["nonce"] as? String)
            #expect(Base64URL.decode(nonce)?.count == 32)
            #expect(!nonce.contains("=") && !nonce.contains("+") && !nonce.contains("/"))
            #expect(nonce != b["nonce"] as? String)
            #expect(a["requestId"] as? String != b["requestId"] as? String)
            #expect(a["expiresAt"] as? String == "2030-01-01T00:05:00Z")
            #expect(first.header("content-type") == "application/json")
        }
    }

    @Test("the sample verifies (200, elements and intent to retain), then the same request is replayed: 409 nonce.replayed")
    func verifiesThenReplays() async throws {
        try await ServerFixture.withServer { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            let response = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(response.status == 200, "\(response.text)")
            let report = try jsonObject(response)
            #expect(report["requestId"] as? String == request.id)
            #expect(report["verified"] as? Bool == true)
            #expect(report["assurance"] as? String == "test")
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            let elements = try #require((document["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
            #expect(elements["family_name"] is String)
            let intents = try #require((document["intentToRetain"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
            #expect(intents["family_name"] as? Bool == true)
            #expect(intents["given_name"] as? Bool == false)

            let replay = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(replay.status == 409)
            #expect(try errorCode(replay) == "nonce.replayed")
        }
    }

    @Test("the response may also be base64url without padding")
    func base64URLResponse() async throws {
        try await ServerFixture.withServer { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            let body = AppleSample.verifyBody(request.id, response: Base64URL.encode(AppleSample.envelope))
            let response = try await server.client.post("/v1/verify", json: body)
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test("a request verified after its TTL: 410 nonce.expired, and it is consumed (then 409)")
    func expiry() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(clock: clock) { server in
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let id = try #require(try jsonObject(created)["requestId"] as? String)
            clock.advance(by: 300)
            let late = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(id))
            #expect(late.status == 410)
            #expect(try errorCode(late) == "nonce.expired")
            let again = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(id))
            #expect(again.status == 409)
        }
    }

    @Test("an unknown request ID: 404 nonce.unknown")
    func unknown() async throws {
        try await ServerFixture.withServer { server in
            let response = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(StoredRequest.newID()))
            #expect(response.status == 404)
            #expect(try errorCode(response) == "nonce.unknown")
        }
    }

    @Test("a body over the configured limit: 413, and the request is not consumed")
    func oversize() async throws {
        var configuration = AppleSample.configuration()
        configuration.bodyLimit = 4096
        try await ServerFixture.withServer(configuration) { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            let padding = String(repeating: "A", count: 8000)
            let big = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id, response: padding))
            #expect(big.status == 413)
            #expect(try errorCode(big) == "input.malformed")
            let bigCreate = try await server.client.post("/v1/requests", json: "{\"format\":\"\(padding)\"}")
            #expect(bigCreate.status == 413)
            // The sample itself (6 KB base64) is over 4 KB too; a later well-formed attempt still finds the request.
            let replay = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id, response: "AA"))
            #expect(replay.status == 422)
        }
    }

    @Test("garbage and mis-shaped bodies: 400 input.malformed, nothing consumed", arguments: [
        "garbage", "", "[]", "{\"requestId\":1,\"response\":\"AA\"}", "{\"response\":\"AA\"}", "{\"requestId\":\"\",\"response\":\"AA\"}",
    ])
    func garbage(body: String) async throws {
        try await ServerFixture.withServer { server in
            let response = try await server.client.post("/v1/verify", json: body)
            #expect(response.status == 400, "\(response.text)")
            #expect(try errorCode(response) == "input.malformed")
        }
    }

    @Test("malformed create bodies: 400 input.malformed", arguments: [
        ("{\"format\":\"apple-app\",\"documents\":[]}", "input.malformed"),
        ("{\"format\":\"mdoc\",\"documents\":[{\"docType\":\"x\",\"nameSpaces\":{\"n\":{\"e\":false}}}]}", "input.malformed"),
        ("{\"format\":\"apple-app\",\"documents\":[{\"docType\":\"x\",\"nameSpaces\":{}}]}", "input.malformed"),
        ("{\"format\":\"apple-app\",\"documents\":[{\"docType\":\"x\",\"nameSpaces\":{\"n\":{\"e\":\"yes\"}}}]}", "input.malformed"),
        ("not json", "input.malformed"),
        ("{\"format\":\"annex-c\",\"documents\":[{\"docType\":\"x\",\"nameSpaces\":{\"n\":{\"e\":false}}}]}", "input.malformed"),
        ("{\"format\":\"annex-c\",\"origin\":\"https://shop.example/path\",\"documents\":[{\"docType\":\"x\",\"nameSpaces\":{\"n\":{\"e\":false}}}]}",
         "input.malformed"),
    ])
    func badCreate(body: String, code: String) async throws {
        try await ServerFixture.withServer { server in
            let response = try await server.client.post("/v1/requests", json: body)
            #expect(response.status == 400, "\(response.text)")
            #expect(try errorCode(response) == code)
        }
    }

    @Test("/healthz is live; /readyz reports store, keys, trust anchors and test mode")
    func health() async throws {
        try await ServerFixture.withServer { server in
            let live = try await server.client.get("/healthz")
            #expect(live.status == 200)
            let ready = try await server.client.get("/readyz")
            #expect(ready.status == 200)
            let body = try jsonObject(ready)
            #expect(body["status"] as? String == "ready")
            #expect(body["testMode"] as? Bool == true)
            #expect(body["assurance"] as? String == "test")
            #expect(body["decryptionKeys"] as? Int == 1)
            #expect(body["trustAnchors"] as? Int == 1)
            #expect((body["store"] as? [String: Any])?["reachable"] as? Bool == true)
        }
    }
}
