import CryptoCore
import ExampleFormat
import Foundation
import LoopbackClient
import MdocConformance
import MdocModel
import MdocTesting
import Testing
import Verifier
import VerifyServer

/// A format the server does not build in, registered by the test alone (`FormatRegistry.withExample`), runs through
/// the backend API, the wallet-facing endpoint and the stores like a built-in one; a server without it knows nothing
/// of it.
@Suite("verify-server: a format registered by a test (org-example-test)")
struct RegisteredFormatServerTests {
    /// The kit's DeviceResponse for the example transcript, as the page posts it (`JSON.stringify(credential)`).
    static func credential(_ wallet: SimulatedWallet, origin: String, nonce: String) throws -> String {
        let transcript = OrgExampleTestFlow.transcript(origin: origin, nonce: try #require(Base64URL.decodeStrict(nonce)))
        let simulated = try MdocSimulator(pki: wallet.pki).simulate(.deviceResponse(transcript), options: wallet.options())
        return JSONValue.object([("protocol", .string("org-example-test-v1")),
                                 ("data", .object([("response", .string(Base64URL.encode(simulated.deviceResponse)))]))]).serialized()
    }

    @Test("create → wallet endpoint → result on every store: /readyz lists it, the answer verifies, a replay is 409, another nonce is rejected")
    func endToEnd() async throws {
        // A key limited to the registered format: its name is checked against the registry the server is made with.
        let key = TransactionAPITests.key("shop", formats: [.orgExampleTest])
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var settings = wallet.configuration()
        settings.apiKeys = [key.entry]
        let configuration = settings
        try await ServerFixture.eachStore { store in
            try await ServerFixture.withServer(configuration, store: store, formats: .withExample) { server in
                let ready = try jsonObject(try await server.client.get("/readyz"))
                #expect((ready["formats"] as? [String])?.contains("org-example-test") == true)

                let created = try await TransactionAPITests.create(server, key, format: "org-example-test")
                #expect(created.status == 201, "\(created.text)")
                let body = try jsonObject(created)
                let id = try #require(body["requestId"] as? String)
                let secret = try #require(body["clientSecret"] as? String)
                #expect(body["protocol"] as? String == "org-example-test-v1")
                #expect(body["origin"] as? String == SimulatedWallet.origin)
                let nonce = try #require(body["nonce"] as? String)
                let credential = try Self.credential(wallet, origin: SimulatedWallet.origin, nonce: nonce)

                let accepted = try await TransactionAPITests.answer(server, id, secret: secret, body: credential)
                #expect(try jsonObject(accepted)["status"] as? String == "accepted", "\(accepted.text)")
                let result = try jsonObject(try await TransactionAPITests.poll(server, key, id))
                #expect(result["status"] as? String == "verified", "\(result)")
                #expect(result["format"] as? String == "org-example-test")
                #expect(try await TransactionAPITests.answer(server, id, secret: secret, body: credential).status == 409)

                // The transcript binds the nonce: an answer made for another request's is rejected by the mdoc checks.
                let second = try jsonObject(try await TransactionAPITests.create(server, key, format: "org-example-test"))
                let other = try Self.credential(wallet, origin: SimulatedWallet.origin, nonce: Base64URL.encode(SecureRandom.bytes(16)))
                let secondID = try #require(second["requestId"] as? String)
                let rejected = try await TransactionAPITests.answer(server, secondID, secret: try #require(second["clientSecret"] as? String), body: other)
                #expect(try jsonObject(rejected)["status"] as? String == "rejected", "\(rejected.text)")
                let polled = try jsonObject(try await TransactionAPITests.poll(server, key, secondID))
                let report = try #require(polled["report"] as? [String: Any])
                #expect((report["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["device.signature_invalid"])
            }
        }
    }

    @Test("an API key limited to the format is a configuration problem, naming the format, only where it is not registered")
    func keyFormats() throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var configuration = wallet.configuration()
        configuration.apiKeys = [TransactionAPITests.key("shop", formats: [.orgExampleTest]).entry]
        #expect(configuration.problems(formats: .withExample).filter { $0.hasPrefix("apiKeys") }.isEmpty)
        let problems = configuration.problems.filter { $0.hasPrefix("apiKeys") }
        #expect(problems.count == 1 && problems.first?.contains("org-example-test") == true && problems.first?.contains("annex-c") == true,
                "\(problems)")
    }

    @Test("without the registration the server does not know it: /readyz omits it, creating one is 400 naming the formats it serves")
    func unregistered() async throws {
        let key = TransactionAPITests.key("shop")
        try await TransactionAPITests.withServer([key]) { server, _ in
            let ready = try jsonObject(try await server.client.get("/readyz"))
            #expect((ready["formats"] as? [String])?.contains("org-example-test") == false)
            let created = try await TransactionAPITests.create(server, key, format: "org-example-test")
            #expect(created.status == 400)
            #expect(created.text.contains("annex-c") && !created.text.contains("org-example-test,"))
        }
    }

    @Test("conformance run --target verify-server drives the registered format: every applicable case of its corpus passes, codes included")
    func conformance() async throws {
        let key = TransactionAPITests.key("shop")
        let corpus = ConformanceCorpus(formats: [.orgExampleTest], registry: .withExample)
        let wallet = try SimulatedWallet(time: corpus.time)
        defer { wallet.remove() }
        let trust = wallet.folder.appendingPathComponent("corpus-iaca.pem")
        try corpus.material().iacaPEM.write(to: trust, atomically: true, encoding: .utf8)
        var settings = wallet.configuration(testMode: true)
        settings.apiKeys = [key.entry]
        settings.trustStorePaths = [trust.path]
        settings.verificationTime = corpus.time
        let configuration = settings
        let summary = try await ServerFixture.withServer(configuration, store: InMemoryRequestStore(), formats: .withExample) { server in
            let base = try #require(URL(string: "http://127.0.0.1:\(try await server.app.port())"))
            let run = ConformanceRun(target: try VerifyServerTarget(base: base, corpus: corpus, apiKey: key.text),
                                     cases: corpus.cases.map(ConformanceRunCase.init), expectCodes: true, jobs: 2)
            // The run blocks on its HTTP calls: on a thread of its own, so the server's tasks keep the cooperative pool.
            return await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: run.run()) }.start()
            }
        }
        #expect(!summary.failed(strict: true), "\(summary.text())")
        #expect(summary.count(.passed) > 40, "\(summary.text())")
        #expect(summary.results.allSatisfy { $0.testCase.format == "org-example-test" })
        // What the server cannot be asked (each case's own revocation lists, another certificate profile) is apart.
        #expect(summary.results.filter { $0.outcome == .notApplicable }.allSatisfy {
            !Set($0.testCase.requires).isDisjoint(with: ["revocation", "certificate-profile"])
        }, "\(summary.text())")
        #expect(summary.results.contains { $0.testCase.id == "org-example-test/attack/replay" && $0.outcome == .passed })
    }
}
