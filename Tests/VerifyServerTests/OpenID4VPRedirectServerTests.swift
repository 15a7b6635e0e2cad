import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocModel
@testable import MdocTesting
import Testing
import Verifier
import VerifyServer

/// openid4vp-redirect through verify-server: the backend creates a transaction and gets the authorization request
/// for a QR code or link; the kit's wallet fetches the signed request object from `request_uri` and posts its form to
/// `response_uri`; the backend reads the result (with the `response_code` of a same-device redirect). Input that can
/// never verify consumes nothing.
@Suite("verify-server: openid4vp-redirect (request_uri, direct_post.jwt)")
struct OpenID4VPRedirectServerTests {
    typealias Key = TransactionAPITests.Key
    static let base = "https://verify.example"

    /// A server with `key`, a reader identity (the kit's) and a wallet base URL.
    static func withServer(_ key: Key, testMode: Bool = false, reader: Bool = true, clock: TestClock = TestClock(),
                           _ body: @Sendable (RunningServer, SimulatedWallet) async throws -> Void) async throws {
        try await TransactionAPITests.withServer([key], testMode: testMode, clock: clock, configure: { configuration in
            configuration.walletBaseURL = base
            guard reader, let identity = try? TestReaderPKI.shared().identity else { return }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-reader-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let keyPath = folder.appendingPathComponent("reader.pem"), certificatePath = folder.appendingPathComponent("reader-cert.pem")
            try? identity.key.pkcs8PEM().write(to: keyPath, atomically: true, encoding: .utf8)
            try? identity.certificates.map(PEMText.certificate).joined().write(to: certificatePath, atomically: true, encoding: .utf8)
            configuration.readerKeyPath = keyPath.path
            configuration.readerCertificatePaths = [certificatePath.path]
        }, body)
    }

    /// A created transaction: its ID, the authorization request as a wallet reads it, and the wallet-facing paths.
    struct Created {
        let id: String
        let authorization: OpenID4VPAuthorizationRequest
        let body: [String: Any]
        var requestPath: String { String(authorization.requestURI.dropFirst(OpenID4VPRedirectServerTests.base.count)) }
        var responsePath: String { "/v1/wallet/\(id)/direct_post" }
    }

    static func create(_ server: RunningServer, _ key: Key, redirectUri: String? = nil) async throws -> Created {
        var body = #"{"format":"openid4vp-redirect","documents":\#(TransactionAPITests.documents)"#
        if let redirectUri { body += #","redirectUri":"\#(redirectUri)""# }
        let response = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array((body + "}").utf8), headers: key.bearer)
        #expect(response.status == 201, "\(response.text)")
        let object = try jsonObject(response)
        let id = try #require(object["requestId"] as? String)
        let authorization = try OpenID4VPAuthorizationRequest(url: try #require(object["authorizationRequest"] as? String))
        return Created(id: id, authorization: authorization, body: object)
    }

    static func fetch(_ server: RunningServer, _ created: Created, form: String? = nil,
                      contentType: String = "application/x-www-form-urlencoded") async throws -> LoopbackHTTPClient.Response {
        guard let form else { return try await server.client.get(created.requestPath) }
        return try await server.client.send(method: .POST, path: created.requestPath, body: Array(form.utf8), contentType: contentType)
    }

    static func post(_ server: RunningServer, _ created: Created, _ form: String,
                     contentType: String = "application/x-www-form-urlencoded") async throws -> LoopbackHTTPClient.Response {
        try await server.client.send(method: .POST, path: created.responsePath, body: Array(form.utf8), contentType: contentType)
    }

    /// The kit wallet's reading of the fetched request object and its answer (the disclosed elements the request asks).
    static func answer(_ wallet: SimulatedWallet, _ created: Created, object: LoopbackHTTPClient.Response,
                       walletNonce: String? = nil) throws -> (request: OpenID4VPRedirectWalletRequest, form: String) {
        let request = try OpenID4VPRedirectWalletRequest(requestObject: object.text, clientID: created.authorization.clientID, walletNonce: walletNonce)
        var options = wallet.options()
        options.elements = SimulatedWallet.elements
        let response = try MdocSimulator(pki: wallet.pki).simulate(.openID4VPRedirect(request), options: options)
        return (request, try #require(response.openID4VPRedirectForm))
    }

    static func status(_ server: RunningServer, _ key: Key, _ id: String, code: String? = nil) async throws -> LoopbackHTTPClient.Response {
        try await server.client.get("/v1/transactions/\(id)" + (code.map { "?response_code=\($0)" } ?? ""), headers: key.bearer)
    }

    @Test("cross-device: create → fetch the request object once → post direct_post.jwt → the backend reads verified; replay 409")
    func crossDevice() async throws {
        let key = TransactionAPITests.key("shop")
        try await Self.withServer(key) { server, wallet in
            let created = try await Self.create(server, key)
            #expect(created.body["clientSecret"] == nil)
            #expect(created.body["clientId"] as? String == created.authorization.clientID)
            #expect(created.authorization.requestURI == Self.base + "/v1/wallet/\(created.id)/request")
            #expect(created.authorization.requestURIMethod == "post")
            #expect(try jsonObject(try await Self.status(server, key, created.id))["status"] as? String == "pending")

            let object = try await Self.fetch(server, created)
            #expect(object.status == 200)
            #expect(object.header("Content-Type") == "application/oauth-authz-req+jwt")
            #expect(object.header("Cache-Control") == "no-store")
            #expect(try jsonObject(try await Self.status(server, key, created.id))["status"] as? String == "fetched")
            let second = try await Self.fetch(server, created)
            #expect(second.status == 409)

            let (request, form) = try Self.answer(wallet, created, object: object)
            #expect(request.responseURI == Self.base + created.responsePath)
            let answered = try await Self.post(server, created, form)
            #expect(answered.status == 200, "\(answered.text)")
            #expect(try jsonObject(answered).isEmpty)
            let result = try jsonObject(try await Self.status(server, key, created.id))
            #expect(result["status"] as? String == "verified", "\(result)")
            #expect(((result["report"] as? [String: Any])?["format"] as? String) == "openid4vp-redirect")
            #expect(try await Self.post(server, created, form).status == 409)
            #expect(try await Self.fetch(server, created).status == 409)
        }
    }

    @Test("POST to request_uri: wallet_nonce echoed; wallet_metadata that rules the request out is 400 and consumes nothing")
    func postedFetch() async throws {
        let key = TransactionAPITests.key("shop")
        try await Self.withServer(key) { server, wallet in
            let created = try await Self.create(server, key)
            let refused = try await Self.fetch(server, created, form: "wallet_metadata=" + FormEncoding.encode(#"{"vp_formats_supported":{"dc+sd-jwt":{}}}"#))
            #expect(refused.status == 400)
            #expect(try errorCode(refused) == "redirect.wallet_unsupported")
            #expect(try await Self.fetch(server, created, form: "wallet_metadata=not-json").status == 400)
            #expect(try await Self.fetch(server, created, form: "wallet_nonce=a&wallet_nonce=b").status == 400)
            #expect(try await Self.fetch(server, created, form: "wallet_nonce=a", contentType: "application/json").status == 415)
            let object = try await Self.fetch(server, created, form: "wallet_nonce=n-123&wallet_metadata="
                                              + FormEncoding.encode(#"{"vp_formats_supported":{"mso_mdoc":{}}}"#))
            #expect(object.status == 200)
            let (_, form) = try Self.answer(wallet, created, object: object, walletNonce: "n-123")
            #expect(try await Self.post(server, created, form).status == 200)
        }
    }

    @Test("input that can never verify consumes nothing: unknown ID 404, wrong content type 415, a parameter twice, a malformed or undecryptable JWE, another state 400")
    func badInputConsumesNothing() async throws {
        let key = TransactionAPITests.key("shop")
        try await Self.withServer(key) { server, wallet in
            let created = try await Self.create(server, key)
            let object = try await Self.fetch(server, created)
            let (_, form) = try Self.answer(wallet, created, object: object)
            let unknown = Created(id: "00000000-0000-4000-8000-000000000000", authorization: created.authorization, body: [:])
            #expect(try await Self.post(server, unknown, form).status == 404)
            #expect(try await server.client.get("/v1/wallet/\(unknown.id)/request").status == 404)
            #expect(try await Self.post(server, created, form, contentType: "application/json").status == 415)
            #expect(try await Self.post(server, created, form, contentType: "text/plain").status == 415)
            #expect(try await Self.post(server, created, form + "&" + form).status == 400)
            #expect(try await Self.post(server, created, "response=not.a.jwe").status == 400)
            #expect(try await Self.post(server, created, "state=x").status == 400)
            #expect(try await Self.post(server, created, "response=%ZZ").status == 400)
            // Whoever saw only the QR code (the ID) cannot end the transaction: an error or a plain answer without the
            // request's state, or a JWE that does not open with the request's key, is refused before it consumes.
            for forged in ["error=access_denied", "error=access_denied&state=guess", "vp_token=%7B%7D&state=guess"] {
                let refused = try await Self.post(server, created, forged)
                #expect(refused.status == 400, "\(forged)")
                #expect(try errorCode(refused) == "redirect.state_mismatch", "\(forged)")
            }
            let (request, _) = try Self.answer(wallet, created, object: object)
            var options = wallet.options()
            options.elements = SimulatedWallet.elements
            let deviceResponse = try MdocSimulator(pki: wallet.pki).simulate(.openID4VPRedirect(request), options: options).deviceResponse
            let presentation = [OpenID4VPRequest.Presentation(queryID: request.queries[0].id, deviceResponses: [deviceResponse])]
            let toOtherKey = try request.answer(presentation, state: request.state, recipient: try PrivateKey.generate(.p256).publicKey)
            let undecryptable = try await Self.post(server, created, toOtherKey)
            #expect(undecryptable.status == 400)
            #expect(try errorCode(undecryptable) == "jwe.decryption_failed")
            let otherState = try await Self.post(server, created, try request.answer(presentation, state: "another-state"))
            #expect(otherState.status == 400)
            #expect(try errorCode(otherState) == "redirect.state_mismatch")
            // A JWE whose state is not text (here a number), or names another state than the form beside it: refused
            // before it consumes, as verify would refuse it after.
            let jwk = try #require(request.jwk)
            let stateField = "&state=" + FormEncoding.encode(request.state)
            for payload in [#"{"vp_token":{},"state":42}"#, #"{"vp_token":{},"state":["\#(request.state)"]}"#,
                            #"{"vp_token":{},"state":"another-state"}"#] {
                let sealed = try OpenID4VPResponseBuilder.seal(Array(payload.utf8), to: try jwk.publicKey(), kid: jwk.kid,
                                                               corruptCiphertext: false, options: OpenID4VPRequest.JWEOptions())
                let refused = try await Self.post(server, created, "response=" + FormEncoding.encode(sealed) + stateField)
                #expect(refused.status == 400, "\(payload)")
                #expect(try errorCode(refused) == "redirect.state_mismatch", "\(payload)")
            }
            #expect(try jsonObject(try await Self.status(server, key, created.id))["status"] as? String == "fetched")
            #expect(try await Self.post(server, created, form).status == 200)
            // Another format's transaction is not answered here.
            let annexC = try jsonObject(try await TransactionAPITests.create(server, key))
            let annexCID = try #require(annexC["requestId"] as? String)
            #expect(try await server.client.get("/v1/wallet/\(annexCID)/request").status == 404)
        }
    }

    @Test("same device: the wallet gets redirect_uri with a fresh response_code; the backend reads the result only with it")
    func sameDevice() async throws {
        let key = TransactionAPITests.key("shop")
        try await Self.withServer(key) { server, wallet in
            let created = try await Self.create(server, key, redirectUri: SimulatedWallet.origin + "/done?order=7")
            let (_, form) = try Self.answer(wallet, created, object: try await Self.fetch(server, created))
            let answered = try jsonObject(try await Self.post(server, created, form))
            let redirect = try #require(answered["redirect_uri"] as? String)
            #expect(redirect.hasPrefix(SimulatedWallet.origin + "/done?order=7#response_code="))
            let code = String(try #require(redirect.split(separator: "=").last))
            #expect(try await Self.status(server, key, created.id).status == 403)
            #expect(try await Self.status(server, key, created.id, code: "wrong").status == 403)
            let result = try jsonObject(try await Self.status(server, key, created.id, code: code))
            #expect(result["status"] as? String == "verified")
            // Another origin's page, another transaction's format, a URL with a fragment: refused.
            var body = #"{"format":"openid4vp-redirect","documents":\#(TransactionAPITests.documents),"redirectUri":"https://attacker.example/x"}"#
            #expect(try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer).status == 403)
            body = #"{"format":"openid4vp-redirect","documents":\#(TransactionAPITests.documents),"redirectUri":"https://shop.example/x#f"}"#
            #expect(try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer).status == 400)
            body = #"{"format":"annex-c","documents":\#(TransactionAPITests.documents),"redirectUri":"https://shop.example/x"}"#
            #expect(try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer).status == 400)
        }
    }

    @Test("the wallet's error ends the transaction rejected with its code; an answer after expiry is 410, a fetch after expiry 410")
    func walletErrorAndExpiry() async throws {
        let key = TransactionAPITests.key("shop")
        let clock = TestClock()
        try await Self.withServer(key, clock: clock) { server, wallet in
            let created = try await Self.create(server, key)
            let (request, _) = try Self.answer(wallet, created, object: try await Self.fetch(server, created))
            #expect(try await Self.post(server, created, request.errorAnswer("access_denied")).status == 200)
            let result = try jsonObject(try await Self.status(server, key, created.id))
            #expect(result["status"] as? String == "rejected")
            #expect(((result["report"] as? [String: Any])?["errors"] as? [[String: Any]])?.first?["code"] as? String == "openid4vp.wallet_error")

            let late = try await Self.create(server, key)
            let object = try await Self.fetch(server, late)
            let (_, form) = try Self.answer(wallet, late, object: object)
            let unfetched = try await Self.create(server, key)
            clock.advance(by: 301)
            #expect(try await Self.post(server, late, form).status == 410)
            #expect(try await Self.fetch(server, unfetched).status == 410)
        }
    }

    @Test("the demo creates openid4vp-redirect transactions (same device: back to /demo) and draws the QR code of a text as SVG")
    func demo() async throws {
        let key = TransactionAPITests.key("shop")
        try await TransactionAPITests.withServer([key], testMode: true, demo: true, configure: { configuration in
            guard let identity = try? TestReaderPKI.shared().identity else { return }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-demo-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? identity.key.pkcs8PEM().write(to: folder.appendingPathComponent("k.pem"), atomically: true, encoding: .utf8)
            try? identity.certificates.map(PEMText.certificate).joined().write(to: folder.appendingPathComponent("c.pem"), atomically: true, encoding: .utf8)
            configuration.readerKeyPath = folder.appendingPathComponent("k.pem").path
            configuration.readerCertificatePaths = [folder.appendingPathComponent("c.pem").path]
        }) { server, wallet in
            let created = try jsonObject(try await server.client.post("/v1/demo/transactions", json: #"{"format":"openid4vp-redirect","sameDevice":true}"#))
            let url = try #require(created["authorizationRequest"] as? String)
            let authorization = try OpenID4VPAuthorizationRequest(url: url)
            // Test mode without walletBaseURL: this listener's own address, the port it bound (the test listens on port 0).
            #expect(authorization.requestURI.hasPrefix("http://127.0.0.1:\(server.client.port)/v1/wallet/"), "\(authorization.requestURI)")
            let object = try await server.client.get(try #require(URLComponents(string: authorization.requestURI)?.path))
            #expect(object.status == 200)
            let request = try OpenID4VPRedirectWalletRequest(requestObject: object.text, clientID: authorization.clientID, walletNonce: nil)
            var options = wallet.options()
            options.elements = SimulatedWallet.elements
            let form = try #require(try MdocSimulator(pki: wallet.pki).simulate(.openID4VPRedirect(request), options: options).openID4VPRedirectForm)
            let id = try #require(created["requestId"] as? String)
            let answered = try await server.client.send(method: .POST, path: "/v1/wallet/\(id)/direct_post", body: Array(form.utf8),
                                                        contentType: "application/x-www-form-urlencoded")
            let redirect = try #require(try jsonObject(answered)["redirect_uri"] as? String)
            #expect(redirect.hasPrefix(SimulatedWallet.origin + "/demo#response_code="))

            let qr = try await server.client.get("/v1/demo/qr?text=" + FormEncoding.encode(url))
            #expect(qr.status == 200)
            #expect(qr.header("Content-Type") == "image/svg+xml")
            #expect(qr.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(try await server.client.get("/v1/demo/qr").status == 400)
            #expect(try await server.client.get("/v1/demo/qr?text=" + String(repeating: "a", count: 2_049)).status == 400)
            #expect(try await server.client.get("/demo").header("Content-Security-Policy")?.contains("img-src 'self'") == true)
        }
    }

    @Test("walletBaseURL: https, or http to a loopback host; no query, fragment or user information")
    func walletBaseURLRule() {
        func problem(_ url: String?, testMode: Bool = false) -> Bool {
            var configuration = ServerConfiguration()
            configuration.testMode = testMode
            configuration.walletBaseURL = url
            return configuration.problems.contains { $0.hasPrefix("walletBaseURL") }
        }
        #expect(!problem("https://verify.example"))
        #expect(!problem("https://verify.example/base/"))
        #expect(problem("http://verify.example"))
        #expect(problem("http://192.168.1.5:8080", testMode: true), "a wallet on the LAN is not this machine: https")
        #expect(!problem("http://127.0.0.1:8080"))
        #expect(!problem("http://[::1]:8080", testMode: true))
        #expect(problem("https://verify.example/?a=1"))
        #expect(problem("https://verify.example/#f"))
        #expect(problem("https://user@verify.example"))
        #expect(problem("verify.example"))
        #expect(!problem(nil))
    }

    @Test("without a reader identity the format is not offered: /readyz omits it, creating one is 400")
    func needsReader() async throws {
        let key = TransactionAPITests.key("shop")
        try await Self.withServer(key, reader: false) { server, _ in
            let ready = try jsonObject(try await server.client.get("/readyz"))
            #expect((ready["formats"] as? [String])?.contains("openid4vp-redirect") == false)
            let body = #"{"format":"openid4vp-redirect","documents":\#(TransactionAPITests.documents)}"#
            let response = try await server.client.send(method: .POST, path: "/v1/transactions", body: Array(body.utf8), headers: key.bearer)
            #expect(response.status == 400)
            #expect(try await server.client.post("/v1/requests", json: body).status == 400)
        }
    }
}
