import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier
import VerifyServer

/// The two sides of the web flow: the backend API (API key) creates and reads transactions; the wallet-facing endpoint
/// (client secret, no credentials) takes the wallet's answer once and tells the page only accepted or rejected.
@Suite("verify-server backend API and wallet-facing endpoint")
struct TransactionAPITests {
    /// A configured key and its text.
    struct Key {
        let entry: APIKey
        let text: String
        var bearer: [(String, String)] { [("Authorization", "Bearer \(text)")] }
    }

    static func key(_ id: String, origins: [String] = [SimulatedWallet.origin], formats: [VerificationReport.Format] = []) -> Key {
        let (text, hash) = APIKey.newKey()
        return Key(entry: APIKey(id: id, sha256: Hex.decode(hash) ?? [], origins: origins, formats: formats), text: text)
    }

    static let documents = """
        [{"docType":"\(DocType.mDL)","nameSpaces":{"\(SimulatedWallet.nameSpace)":{"family_name":true,"given_name":false,"age_over_21":false}}}]
        """

    static func createBody(_ format: String, origin: String? = nil) -> String {
        origin.map { #"{"format":"\#(format)","origin":"\#($0)","documents":\#(documents)}"# } ?? #"{"format":"\#(format)","documents":\#(documents)}"#
    }

    static func create(_ server: RunningServer, _ key: Key, format: String = "annex-c", origin: String? = nil) async throws -> LoopbackHTTPClient.Response {
        try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(createBody(format, origin: origin).utf8), headers: key.bearer)
    }

    static func poll(_ server: RunningServer, _ key: Key, _ id: String) async throws -> LoopbackHTTPClient.Response {
        try await server.client.get("/v1/transactions/\(id)", headers: key.bearer)
    }

    static func answer(_ server: RunningServer, _ id: String, secret: String?, body: String,
                       origin: String? = nil) async throws -> LoopbackHTTPClient.Response {
        var headers: [(String, String)] = []
        if let secret { headers.append(("X-Client-Secret", secret)) }
        if let origin { headers.append(("Origin", origin)) }
        return try await server.client.send(method: .POST, path: "/v1/wallet/\(id)/response", body: Array(body.utf8), headers: headers)
    }

    /// `JSON.stringify(credential)` of an org-iso-mdoc answer.
    static func credential(annexC response: String) -> String {
        #"{"protocol":"org-iso-mdoc","data":{"response":"\#(response)"}}"#
    }

    /// A server with `keys` trusting the simulated wallet's IACA, in test mode (so the demo can be on) or not.
    static func withServer(_ keys: [Key], testMode: Bool = false, demo: Bool = false, clock: TestClock = TestClock(),
                           configure: (inout ServerConfiguration) -> Void = { _ in },
                           _ body: @Sendable (RunningServer, SimulatedWallet) async throws -> Void) async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var configuration = wallet.configuration(testMode: testMode)
        configuration.apiKeys = keys.map(\.entry)
        if demo { configuration.demoOrigin = SimulatedWallet.origin }
        configure(&configuration)
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore(), clock: clock) { server in
            try await body(server, wallet)
        }
    }

    @Test("without an API key, with an unknown one, another scheme or an oversized header: 401 auth.unauthorized with WWW-Authenticate, nothing created")
    func unauthenticated() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, _ in
            let cases: [[(String, String)]] = [
                [], [("Authorization", "Bearer \(Self.key("other").text)")], [("Authorization", "Basic \(key.text)")],
                [("Authorization", "Bearer ")], [("Authorization", "Bearer " + String(repeating: "k", count: 4000))],
                [("Authorization", "Bearer \(key.text)x")],
            ]
            for headers in cases {
                let response = try await server.client.send(method: .POST, path: "/v1/transactions",
                                                            body: Array(Self.createBody("annex-c").utf8), headers: headers)
                #expect(response.status == 401, "\(headers.map(\.0))")
                #expect(try errorCode(response) == "auth.unauthorized")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(response.header("Access-Control-Allow-Origin") == nil)
                let poll = try await server.client.get("/v1/transactions/anything", headers: headers)
                #expect(poll.status == 401)
            }
            #expect(try await Self.create(server, key).status == 201)
        }
    }

    @Test("annex-c end to end: create (key) → wrong secret 404, /v1/verify 404, nothing consumed → the wallet's answer → page sees only accepted → backend reads verified elements → second answer 409")
    func annexCEndToEnd() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, wallet in
            let created = try await Self.create(server, key)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.header("Cache-Control") == "no-store")
            let body = try jsonObject(created)
            let id = try #require(body["requestId"] as? String)
            let secret = try #require(body["clientSecret"] as? String)
            #expect(secret.count >= 43)
            #expect(body["protocol"] as? String == "org-iso-mdoc")
            #expect(body["origin"] as? String == SimulatedWallet.origin)
            let data = try #require(body["data"] as? [String: Any])

            let pending = try await Self.poll(server, key, id)
            #expect(pending.status == 200)
            #expect(try jsonObject(pending)["status"] as? String == "pending")
            #expect(pending.header("Cache-Control") == "no-store")

            let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            let answer = Self.credential(annexC: response)
            // A wrong, missing or oversized secret and an unknown ID are the same 404; none consumes the request.
            for wrong in [String(secret.reversed()), nil, "", String(repeating: "s", count: 300)] as [String?] {
                let refused = try await Self.answer(server, id, secret: wrong, body: answer)
                #expect(refused.status == 404)
                #expect(try errorCode(refused) == "nonce.unknown")
            }
            let unknown = try await Self.answer(server, StoredRequest.newID(), secret: secret, body: answer)
            #expect(unknown.status == 404)
            #expect(unknown.text == (try await Self.answer(server, id, secret: "wrong", body: answer)).text)
            // The deprecated verify route does not reach a transaction (it would bypass the secret).
            let legacy = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(legacy.status == 404)

            let accepted = try await Self.answer(server, id, secret: secret, body: answer)
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(try jsonObject(accepted).keys.sorted() == ["status"])
            #expect(try jsonObject(accepted)["status"] as? String == "accepted")
            #expect(!accepted.text.contains("family_name"))

            let verified = try await Self.poll(server, key, id)
            #expect(verified.status == 200)
            let result = try jsonObject(verified)
            #expect(result["status"] as? String == "verified")
            let report = try #require(result["report"] as? [String: Any])
            #expect(report["verified"] as? Bool == true)
            #expect(report["requestId"] as? String == id)
            #expect(verified.text.contains("family_name"))

            let second = try await Self.answer(server, id, secret: secret, body: answer)
            #expect(second.status == 409)
            #expect(try errorCode(second) == "nonce.replayed")
            // The second answer changed nothing the backend reads.
            #expect(try jsonObject(try await Self.poll(server, key, id))["status"] as? String == "verified")
        }
    }

    @Test("openid4vp (dc_api.jwt) end to end: the page posts JSON.stringify(credential) and the backend reads the elements")
    func openID4VPEndToEnd() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, wallet in
            let created = try await Self.create(server, key, format: "openid4vp")
            #expect(created.status == 201, "\(created.text)")
            let body = try jsonObject(created)
            let id = try #require(body["requestId"] as? String)
            let protocolIdentifier = try #require(body["protocol"] as? String)
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["response_mode"] as? String == "dc_api.jwt")
            let credential = try wallet.openID4VPResponse(protocolIdentifier: protocolIdentifier, data: data)
            let accepted = try await Self.answer(server, id, secret: try #require(body["clientSecret"] as? String), body: credential)
            #expect(try jsonObject(accepted)["status"] as? String == "accepted", "\(accepted.text)")
            let result = try jsonObject(try await Self.poll(server, key, id))
            #expect(result["status"] as? String == "verified")
            #expect(result["format"] as? String == "openid4vp")
        }
    }

    @Test("another key's transaction, a request made without a key, and an unknown ID all read as 404")
    func otherKeysSeeNothing() async throws {
        let (shop, other) = (Self.key("shop"), Self.key("other"))
        try await Self.withServer([shop, other]) { server, _ in
            let id = try #require(try jsonObject(try await Self.create(server, shop))["requestId"] as? String)
            let foreign = try await Self.poll(server, other, id)
            #expect(foreign.status == 404)
            #expect(try errorCode(foreign) == "nonce.unknown")
            #expect(try await Self.poll(server, shop, id).status == 200)
            let legacy = try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c"))
            let legacyID = try #require(try jsonObject(legacy)["requestId"] as? String)
            #expect(try await Self.poll(server, shop, legacyID).status == 404)
            #expect(try await Self.poll(server, shop, StoredRequest.newID()).status == 404)
            #expect(try await Self.poll(server, shop, String(repeating: "a", count: 200)).status == 404)
            // Nor can the wallet-facing endpoint answer a request made without a secret.
            #expect(try await Self.answer(server, legacyID, secret: "x", body: #"{"response":"x"}"#).status == 404)
        }
    }

    @Test("a key's scope: a format it may not create and an origin it does not list are 403 auth.forbidden; several origins need one named")
    func scope() async throws {
        let apple = Self.key("apple-only", origins: [], formats: [.appleApp])
        let two = Self.key("two", origins: [SimulatedWallet.origin, "https://other.example"])
        try await Self.withServer([apple, two]) { server, _ in
            let format = try await Self.create(server, apple, format: "annex-c")
            #expect(format.status == 403)
            #expect(try errorCode(format) == "auth.forbidden")
            #expect(try await Self.create(server, apple, format: "apple-app").status == 201)
            let unnamed = try await Self.create(server, two)
            #expect(unnamed.status == 400)
            let foreign = try await Self.create(server, two, origin: "https://evil.example")
            #expect(foreign.status == 403)
            #expect(try errorCode(foreign) == "auth.forbidden")
            let named = try await Self.create(server, two, origin: "https://other.example")
            #expect(named.status == 201)
            #expect(try jsonObject(named)["origin"] as? String == "https://other.example")
        }
    }

    @Test("expired: the wallet's late answer is 410 and the backend reads expired")
    func expired() async throws {
        let key = Self.key("shop")
        let clock = TestClock()
        try await Self.withServer([key], clock: clock) { server, _ in
            let body = try jsonObject(try await Self.create(server, key))
            let id = try #require(body["requestId"] as? String)
            clock.advance(by: 301)
            let late = try await Self.answer(server, id, secret: try #require(body["clientSecret"] as? String), body: Self.credential(annexC: "AAAA"))
            #expect(late.status == 410)
            #expect(try errorCode(late) == "nonce.expired")
            #expect(try jsonObject(try await Self.poll(server, key, id))["status"] as? String == "expired")
        }
    }

    @Test("an answer of another protocol is consumed and rejected: the page sees rejected, the backend the report's code")
    func rejectedAnswer() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, _ in
            let body = try jsonObject(try await Self.create(server, key))
            let id = try #require(body["requestId"] as? String)
            let secret = try #require(body["clientSecret"] as? String)
            // Not the DC API result's shape: 400 and not consumed.
            let malformed = try await Self.answer(server, id, secret: secret, body: #"{"protocol":"org-iso-mdoc"}"#)
            #expect(malformed.status == 400)
            #expect(try await Self.answer(server, id, secret: secret, body: "not json").status == 400)
            let rejected = try await Self.answer(server, id, secret: secret, body: #"{"protocol":"openid4vp-v1-unsigned","data":{"vp_token":{}}}"#)
            #expect(rejected.status == 200)
            #expect(try jsonObject(rejected).keys.sorted() == ["status"])
            #expect(try jsonObject(rejected)["status"] as? String == "rejected")
            let result = try jsonObject(try await Self.poll(server, key, id))
            #expect(result["status"] as? String == "rejected")
            let errors = try #require((result["report"] as? [String: Any])?["errors"] as? [[String: Any]])
            #expect(errors.first?["code"] as? String == "envelope.unsupported")
            #expect(try await Self.answer(server, id, secret: secret, body: #"{"protocol":"org-iso-mdoc","data":{"response":"AAAA"}}"#).status == 409)
        }
    }

    @Test("CORS: the wallet route answers configured origins exactly with Vary: Origin and no credentials; others, null and the backend get nothing")
    func crossOrigin() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, _ in
            let path = "/v1/wallet/\(StoredRequest.newID())/response"
            let preflight = try await server.client.send(method: .OPTIONS, path: path, body: nil, headers: [
                ("Origin", SimulatedWallet.origin), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type,x-client-secret"),
            ])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == SimulatedWallet.origin)
            #expect(preflight.header("Vary") == "Origin")
            #expect(preflight.header("Access-Control-Allow-Credentials") == nil)
            #expect(preflight.header("Access-Control-Allow-Headers")?.lowercased().contains("x-client-secret") == true)
            // An ID no request can have: 404, as the POST answers it.
            let tooLong = try await server.client.send(method: .OPTIONS, path: "/v1/wallet/\(String(repeating: "0", count: 129))/response",
                                                       body: nil, headers: [("Origin", SimulatedWallet.origin)])
            #expect(tooLong.status == 404)
            for origin in ["https://evil.example", "null", "https://shop.example.evil.example", "*", "HTTPS://SHOP.EXAMPLE"] {
                let refused = try await server.client.send(method: .OPTIONS, path: path, body: nil, headers: [("Origin", origin)])
                #expect(refused.status == 204)
                #expect(refused.header("Access-Control-Allow-Origin") == nil, "\(origin)")
                #expect(refused.header("Access-Control-Allow-Methods") == nil)
                let posted = try await Self.answer(server, StoredRequest.newID(), secret: "x", body: "{}", origin: origin)
                #expect(posted.header("Access-Control-Allow-Origin") == nil)
            }
            let answered = try await Self.answer(server, StoredRequest.newID(), secret: "x", body: #"{"response":"x"}"#, origin: SimulatedWallet.origin)
            #expect(answered.status == 404)
            #expect(answered.header("Access-Control-Allow-Origin") == SimulatedWallet.origin)
            #expect(answered.header("Vary") == "Origin")
            // The backend API answers no cross-origin request.
            let backend = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(Self.createBody("annex-c").utf8),
                                                       headers: key.bearer + [("Origin", SimulatedWallet.origin)])
            #expect(backend.status == 201)
            #expect(backend.header("Access-Control-Allow-Origin") == nil)
            let backendPreflight = try await server.client.send(method: .OPTIONS, path: "/v1/transactions", body: nil,
                                                                headers: [("Origin", SimulatedWallet.origin)])
            #expect(backendPreflight.status == 405)
            #expect(backendPreflight.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test("hostile wallet bodies: deep nesting, over the body limit, wrong types — 400 or 413, nothing consumed, the server still answers")
    func hostileBodies() async throws {
        let key = Self.key("shop")
        try await Self.withServer([key]) { server, _ in
            let body = try jsonObject(try await Self.create(server, key))
            let id = try #require(body["requestId"] as? String)
            let secret = try #require(body["clientSecret"] as? String)
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let deep = try await Self.answer(server, id, secret: secret, body: #"{"protocol":"org-iso-mdoc","data":"# + nested + "}")
            #expect(deep.status == 400)
            let huge = try await Self.answer(server, id, secret: secret, body: #"{"response":""# + String(repeating: "A", count: 2 << 20) + #""}"#)
            #expect(huge.status == 413)
            for wrong in [#"{"protocol":1,"data":{}}"#, #"{"response":5}"#, "[]", #"{"protocol":"org-iso-mdoc","response":"x"}"#] {
                #expect(try await Self.answer(server, id, secret: secret, body: wrong).status == 400, "\(wrong)")
            }
            // None of these consumed the transaction.
            #expect(try jsonObject(try await Self.poll(server, key, id))["status"] as? String == "pending")
            #expect(try await Self.answer(server, id, secret: secret, body: Self.credential(annexC: "AAAA")).status == 200)
        }
    }

    @Test("with requestStateKeyFile the stored report is encrypted; the backend still reads it")
    func sealedResult() async throws {
        let key = Self.key("shop")
        let store = InMemoryRequestStore()
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var configuration = wallet.configuration()
        configuration.apiKeys = [key.entry]
        configuration.requestStateKey = try RequestStateKey(bytes: Array(0 ..< 32))
        try await ServerFixture.withServer(configuration, store: store) { server in
            let body = try jsonObject(try await Self.create(server, key))
            let id = try #require(body["requestId"] as? String)
            let data = try #require(body["data"] as? [String: Any])
            let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            #expect(try jsonObject(try await Self.answer(server, id, secret: try #require(body["clientSecret"] as? String),
                                                         body: Self.credential(annexC: response)))["status"] as? String == "accepted")
            let raw = try #require(try await store.lookup(id: id)?.result)
            #expect(raw.report.hasPrefix("aes-256-gcm:"))
            #expect(!raw.report.contains("family_name"))
            let polled = try await Self.poll(server, key, id)
            #expect(polled.text.contains("family_name"))
        }
    }

    @Test("verify-server --new-api-key: the key is printed once with the entry holding its SHA-256, which authenticates it")
    func newKeyListing() async throws {
        let listing = try APIKey.newKeyListing(id: "shop-backend")
        let lines = listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let key = try #require(lines.first { $0.hasPrefix(APIKey.prefix) })
        let hash = try #require(lines.first { $0.hasPrefix("sha256: ") }.map { String($0.dropFirst("sha256: ".count)) })
        #expect(Hex.encode(Digest.hash(.sha256, Array(key.utf8))) == hash)
        #expect(key.count >= 4 + 43)
        #expect(listing.contains("id: shop-backend"))
        #expect(throws: ConfigurationProblems.self) { try APIKey.newKeyListing(id: "no spaces") }
    }
}

@Suite("verify-server apiKeys and demoOrigin configuration")
struct APIKeyConfigurationTests {
    @Test("apiKeys from YAML (lists inside entries) and from VERIFY_SERVER_API_KEYS (JSON text); a keyFile is hashed")
    func parse() throws {
        try ConfigurationTests.withFolder { folder in
            let (text, hash) = APIKey.newKey()
            let keyFile = folder.appendingPathComponent("key")
            try Data("\(text)\n".utf8).write(to: keyFile)
            let file = folder.appendingPathComponent("verify-server.yaml").path
            try """
                merchantID: m
                teamID: t
                decryptionKeys: [/keys/a.pem]
                apiKeys:
                  - id: shop
                    sha256: \(hash)
                    origins: [https://shop.example, https://www.shop.example]
                    formats: [annex-c, openid4vp]
                  - id: file
                    keyFile: \(keyFile.path)
                    origins: [https://app.example]
                """.write(toFile: file, atomically: true, encoding: .utf8)
            let (configuration, problems) = ConfigurationLoader.read(file: file, environment: [:])
            #expect(problems.isEmpty, "\(problems)")
            #expect(configuration.apiKeys.map(\.id) == ["shop", "file"])
            #expect(configuration.apiKeys[0].origins == ["https://shop.example", "https://www.shop.example"])
            #expect(configuration.apiKeys[0].formats == [.annexC, .openID4VP])
            #expect(configuration.apiKeys[1].sha256 == Hex.decode(hash))
            #expect(configuration.apiKeys[1].formats == [])

            let (fromEnvironment, environmentProblems) = ConfigurationLoader.read(file: file, environment: [
                "VERIFY_SERVER_API_KEYS": #"[{"id": "env", "sha256": "\#(hash)", "origins": ["https://env.example"]}]"#,
            ])
            #expect(environmentProblems.isEmpty, "\(environmentProblems)")
            #expect(fromEnvironment.apiKeys.map(\.id) == ["env"])
            #expect(fromEnvironment.apiKeys.first?.origins == ["https://env.example"])

            // A member of another JSON type is refused, never read as absent (an absent `formats` allows every format).
            for member in [#""formats": 5"#, #""formats": ["annex-c", 1]"#, #""origins": {"a": "b"}"#, #""formats": null"#] {
                let (_, problems) = ConfigurationLoader.read(file: file, environment: [
                    "VERIFY_SERVER_API_KEYS": #"[{"id": "env", "sha256": "\#(hash)", \#(member)}]"#,
                ])
                #expect(problems.contains { $0.contains("entry 1") && $0.contains("must be a string or a list of strings") }, "\(member): \(problems)")
            }
        }
    }

    @Test("problems: a short hash, a repeated id or key, an origin with a path, web formats without origins, an unknown field, demoOrigin outside test mode")
    func problems() throws {
        var configuration = ServerConfiguration()
        let hash = Array(repeating: UInt8(7), count: 32)
        configuration.apiKeys = [
            APIKey(id: "a", sha256: [1, 2, 3], origins: ["https://shop.example"]),
            APIKey(id: "b", sha256: hash, origins: ["https://shop.example/page"]),
            APIKey(id: "b", sha256: hash, origins: []),
            APIKey(id: "bad id", sha256: Array(repeating: 8, count: 32), formats: [.appleApp]),
        ]
        configuration.demoOrigin = "https://demo.example"
        let problems = configuration.problems.joined(separator: "\n")
        #expect(problems.contains("sha256 must be 64 hex digits"))
        #expect(problems.contains("listed twice"))
        #expect(problems.contains("same key is listed under two ids"))
        #expect(problems.contains("is not a serialized web origin"))
        #expect(problems.contains("need origins"))
        #expect(problems.contains("must be 1 to 64 letters"))
        #expect(problems.contains("demoOrigin serves a demo page"))
        try ConfigurationTests.withFolder { folder in
            let file = folder.appendingPathComponent("c.yaml").path
            try "apiKeys:\n  - id: x\n    sha256: \(String(repeating: "ab", count: 32))\n    secret: oops\n".write(toFile: file, atomically: true, encoding: .utf8)
            let (_, read) = ConfigurationLoader.read(file: file, environment: [:])
            #expect(read.joined().contains("unknown fields: secret"))
        }
    }
}
