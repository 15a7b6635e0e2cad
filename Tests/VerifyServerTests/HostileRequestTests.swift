import Testing
import VerifyServer

/// Oversized or hostile request bodies are refused briefly, without echoing what was sent.
@Suite("verify-server: hostile request bodies")
struct HostileRequestTests {
    @Test("a 200 KB annex-c origin is 400 input.malformed, and the answer quotes at most a short prefix")
    func longOriginIsNotEchoed() async throws {
        let origin = "https://" + String(repeating: "a", count: 200_000) + ".example/"
        let body = #"{"format":"annex-c","origin":""# + origin
            + #"","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
        try await ServerFixture.withServer { server in
            let answer = try await server.client.post("/v1/requests", json: body)
            #expect(answer.status == 400)
            #expect(try errorCode(answer) == "input.malformed")
            #expect(answer.body.count < 1024, "the answer is \(answer.body.count) bytes")
            #expect(answer.text.contains("bytes)"))
        }
    }

    @Test("a request naming 50,000 elements is 400 input.malformed naming the bound")
    func tooManyElements() async throws {
        let elements = (0 ..< 50_000).map { #""e\#($0)":false"# }.joined(separator: ",")
        let body = #"{"format":"apple-app","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"#
            + elements + "}}}]}"
        try await ServerFixture.withServer { server in
            let answer = try await server.client.post("/v1/requests", json: body)
            #expect(answer.status == 400)
            #expect(try errorCode(answer) == "input.malformed")
            #expect(answer.text.contains("50000 elements; at most 256"))
        }
    }
}
