import Foundation
import Logging
import Mdoc
import MdocModel
import Synchronization
import Testing
import TestSupport
import VerifyServer

@Suite("verify-server logs and metrics")
struct ObservabilityTests {
    @Test("logs carry request IDs and codes, never the nonce, element values or key material")
    func logsStayClean() async throws {
        let logs = CapturedLogs()
        let secrets: [String] = try await ServerFixture.withServer(logger: logs.logger) { server in
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let nonce = try #require(try jsonObject(created)["nonce"] as? String)
            let request = AppleSample.request()
            try await server.store.insert(request)
            let verified = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(verified.status == 200)
            let document = try #require((try jsonObject(verified)["documents"] as? [[String: Any]])?.first)
            let elements = try #require((document["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
            let familyName = try #require(elements["family_name"] as? String)
            let documentNumber = try #require(elements["document_number"] as? String)
            #expect(logs.all.contains(request.id))
            return [nonce, Base64URL.encode(AppleSampleVector.nonce), Hex.encode(AppleSampleVector.nonce), familyName, documentNumber,
                    "PRIVATE KEY"]
        }
        let text = logs.all
        #expect(text.contains("code=none"))
        for secret in secrets {
            #expect(!text.contains(secret), "the logs contain a secret value")
        }
    }

    @Test("/metrics: verifications by outcome and code, stage histograms, store operations")
    func metrics() async throws {
        try await ServerFixture.withServer { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            _ = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            _ = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            _ = try await server.client.post("/v1/verify", json: "garbage")
            _ = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let response = try await server.client.get("/metrics")
            #expect(response.status == 200)
            #expect(response.header("content-type")?.hasPrefix("text/plain") == true)
            let text = response.text
            for expected in [
                #"verify_server_verifications_total{format="apple-app",outcome="verified",code="none"} 1"#,
                #"verify_server_verifications_total{format="apple-app",outcome="replayed",code="nonce.replayed"} 1"#,
                #"verify_server_verifications_total{format="unknown",outcome="malformed",code="input.malformed"} 1"#,
                #"verify_server_verification_stage_seconds_count{stage="hpke"} 1"#,
                #"verify_server_verification_stage_seconds_count{stage="chain"} 1"#,
                #"verify_server_store_operations_total{operation="consume",result="consumed"} 1"#,
                #"verify_server_store_operations_total{operation="consume",result="replayed"} 1"#,
                // The test's own insert and POST /v1/requests both go through the metered store.
                #"verify_server_store_operations_total{operation="insert",result="ok"} 2"#,
                #"verify_server_requests_created_total{format="apple-app"} 1"#,
            ] {
                #expect(text.contains(expected) as Bool, "missing: \(expected)")
            }
        }
    }
}
