import Foundation
import InMemoryTracing
import Instrumentation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Tracing
import VerifyServer

/// Spans for a user's tracer: one per HTTP request, one per verification, one per verification stage — and no
/// nonce, key, response or element value in any span's name or attributes.
@Suite("Tracing spans")
struct TracingTests {
    /// One in-memory tracer for the test process (a tracer can be bootstrapped once).
    static let tracer: InMemoryTracer = {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    @Test("a verify call yields request, verification and stage spans, free of secrets")
    func spans() async throws {
        let tracer = Self.tracer
        try await ServerFixture.withServer { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            let response = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(response.status == 200)
        }
        let spans = tracer.finishedSpans
        let names = Set(spans.map(\.operationName))
        for stage in ["mdoc.decode", "mdoc.hpke", "mdoc.issuer", "mdoc.chain", "mdoc.digests", "mdoc.device"] {
            #expect(names.contains(stage), "no \(stage) span")
        }
        // Other suites verify concurrently into the same tracer: this test's call is the verified apple-app one.
        let verification = try #require(spans.last {
            $0.operationName == "verification" && "\($0.attributes)".contains(#"string("verified")"#)
                && "\($0.attributes)".contains(#"string("apple-app")"#)
        })
        #expect(spans.contains { $0.operationName.contains("/v1/verify") }, "no request span: \(names.sorted())")
        // Stage spans hang under the verification span of the same trace.
        let hpke = try #require(spans.last { $0.operationName == "mdoc.hpke" && $0.traceID == verification.traceID })
        #expect(hpke.parentSpanID == verification.spanID)

        let secrets = [Base64URL.encode(AppleSampleVector.nonce), Hex.encode(AppleSampleVector.nonce), "Doe", "Jane",
                       String(AppleSample.envelopeBase64.prefix(24))]
        for span in spans {
            let text = span.operationName + " " + "\(span.attributes)"
            for secret in secrets {
                #expect(!text.contains(secret), "span \(span.operationName) carries a secret")
            }
        }
    }
}
