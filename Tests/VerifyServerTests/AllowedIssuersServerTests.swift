import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier
import VerifyServer

/// `POST /v1/requests` with an issuer allow-list: offered narrowed to the trust store, enforced on `POST /v1/verify`
/// (422 `policy.issuer_not_allowed`), and refused with 400 `input.malformed`, storing nothing, when malformed or
/// when it names an issuer the trust store does not anchor.
@Suite("verify-server: the request's issuer allow-list (allowedIssuers)")
struct AllowedIssuersServerTests {
    /// The wallet's issuer and another trusted issuer, in one trust folder (no manifest).
    struct Setup {
        let wallet: SimulatedWallet
        let other: TestPKI
        let trustFolder: URL

        init() throws {
            wallet = try SimulatedWallet(time: Date())
            other = try TestPKI(seed: 8, at: wallet.time)
            trustFolder = wallet.folder.appendingPathComponent("trust")
            try FileManager.default.createDirectory(at: trustFolder, withIntermediateDirectories: true)
            try PEMText.certificate(wallet.pki.iaca).write(to: walletAnchor, atomically: true, encoding: .utf8)
            try PEMText.certificate(other.iaca).write(to: trustFolder.appendingPathComponent("other.pem"), atomically: true, encoding: .utf8)
        }

        var walletAnchor: URL { trustFolder.appendingPathComponent("wallet.pem") }
        var walletID: String { Base64URL.encode(IssuerIdentifiers.identifier(of: wallet.pki.iaca) ?? []) }
        var otherID: String { Base64URL.encode(IssuerIdentifiers.identifier(of: other.iaca) ?? []) }

        var configuration: ServerConfiguration {
            var configuration = wallet.configuration()
            configuration.trustStorePaths = [trustFolder.path]
            return configuration
        }

        static func body(_ format: String, allowed: [String]) -> String {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ",")
            return String(SimulatedWallet.createBody(format).dropLast()) + #","allowedIssuers":[\#(list)]}"#
        }
    }

    static func created(_ response: LoopbackHTTPClient.Response) throws -> (id: String, body: [String: Any]) {
        #expect(response.status == 201, "\(response.text)")
        let body = try jsonObject(response)
        return (try #require(body["requestId"] as? String), body)
    }

    @Test("apple-app: created with another trusted issuer's identifier → offered alone, the kit's answer is 422 policy.issuer_not_allowed; with the wallet's → 200 (the list kept in memory and in SQLite)",
          arguments: ["memory", "sqlite"])
    func enforced(storeKind: String) async throws {
        let setup = try Setup()
        defer { setup.wallet.remove() }
        let sqlite = storeKind == "memory" ? nil
            : try await SQLiteRequestStore.open(path: setup.wallet.folder.appendingPathComponent("requests.sqlite").path,
                                                logger: ServerFixture.quietLogger)
        // A SQLite store must be closed before it is released, also when the test fails.
        var failure: (any Error)?
        do {
            try await Self.enforced(setup, store: sqlite ?? InMemoryRequestStore())
        } catch {
            failure = error
        }
        try await sqlite?.close()
        if let failure { throw failure }
    }

    static func enforced(_ setup: Setup, store: any RequestStore) async throws {
        try await ServerFixture.withServer(setup.configuration, store: store) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: Setup.body("apple-app", allowed: [setup.otherID])))
            #expect(body["issuerIdentifiers"] as? [String: [String]] == [DocType.mDL: [setup.otherID]])
            let response = try setup.wallet.appleResponse(nonce: try #require(body["nonce"] as? String))
            let refused = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(refused.status == 422, "\(refused.text)")
            #expect(try errorCodes(refused) == ["policy.issuer_not_allowed"])
            #expect(refused.text.contains(setup.walletID), "the report names the document's issuer identifier")

            let (allowedID, allowed) = try Self.created(try await server.client.post(
                "/v1/requests", json: Setup.body("apple-app", allowed: [setup.otherID, setup.walletID])))
            let answer = try setup.wallet.appleResponse(nonce: try #require(allowed["nonce"] as? String))
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(allowedID, response: answer))
            #expect(verified.status == 200, "\(verified.text)")
        }
    }

    @Test("annex-c and openid4vp: the narrowed list is in requestInfo and in trusted_authorities; a document from another issuer is 422")
    func webFormats() async throws {
        let setup = try Setup()
        defer { setup.wallet.remove() }
        try await ServerFixture.withServer(setup.configuration, store: InMemoryRequestStore()) { server in
            let (id, web) = try Self.created(try await server.client.post("/v1/requests", json: Setup.body("annex-c", allowed: [setup.otherID])))
            let data = try #require(web["data"] as? [String: Any])
            let deviceRequestText = try #require(data["deviceRequest"] as? String)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(deviceRequestText)))
            #expect(deviceRequest.docRequests.first?.itemsRequest.issuerIdentifiers == [try #require(Base64URL.decode(setup.otherID))])
            let response = try setup.wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            let refused = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(refused.status == 422, "\(refused.text)")
            #expect(try errorCodes(refused) == ["policy.issuer_not_allowed"])

            let (_, openID4VP) = try Self.created(try await server.client.post("/v1/requests", json: Setup.body("openid4vp", allowed: [setup.walletID])))
            let dcql = try #require((openID4VP["data"] as? [String: Any])?["dcql_query"] as? [String: Any])
            let query = try #require((dcql["credentials"] as? [[String: Any]])?.first)
            let authorities = try #require(query["trusted_authorities"] as? [[String: Any]])
            #expect(authorities.count == 1)
            #expect(authorities.first?["type"] as? String == "aki")
            #expect(authorities.first?["values"] as? [String] == [setup.walletID])
        }
    }

    @Test("attacks: 1,001 entries, a 65-byte entry, one in neither form, a repeat, an untrusted issuer's identifier → 400 input.malformed, nothing stored")
    func refused() async throws {
        let setup = try Setup()
        defer { setup.wallet.remove() }
        let stranger = Base64URL.encode(IssuerIdentifiers.identifier(of: try TestPKI(seed: 9, at: setup.wallet.time).iaca) ?? [])
        let cases: [(String, [String], String)] = [
            ("apple-app", (0...1000).map { Base64URL.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }, "names 1001 issuers; at most 1000"),
            ("apple-app", [Base64URL.encode([UInt8](repeating: 1, count: 65))], "allowedIssuers[0] is 65 bytes"),
            ("annex-c", [setup.walletID, "not base64!"], "allowedIssuers[1] is neither base64url nor hex"),
            ("apple-app", [setup.walletID, setup.walletID], "allowedIssuers[1] repeats allowedIssuers[0]"),
            ("apple-app", [setup.walletID, stranger], "allowedIssuers[1] (\(stranger)) is the key identifier of no trust anchor"),
            ("annex-c", [stranger], "allowedIssuers[0] (\(stranger)) is the key identifier of no trust anchor"),
            ("openid4vp", [stranger], "allowedIssuers[0] (\(stranger)) is the key identifier of no trust anchor"),
        ]
        try await ServerFixture.withServer(setup.configuration, store: InMemoryRequestStore()) { server in
            for (format, list, message) in cases {
                let answer = try await server.client.post("/v1/requests", json: Setup.body(format, allowed: list))
                #expect(answer.status == 400, "\(message): \(answer.status) \(answer.text)")
                #expect(try errorCode(answer) == "input.malformed")
                #expect(answer.text.contains(message), "\(answer.text)")
                #expect(!answer.text.contains("not base64!"), "the entry is not echoed")
            }
            #expect(try await server.store.purge(expiredBefore: .distantFuture) == 0, "no refused request was stored")
        }
    }

    @Test("allowedIssuers null on /v1/requests and /v1/transactions → 400 input.malformed naming the field, nothing stored; absent or [] → 201")
    func nullRefused() async throws {
        let setup = try Setup()
        defer { setup.wallet.remove() }
        let key = TransactionAPITests.key("shop")
        var configuration = setup.configuration
        configuration.apiKeys = [key.entry]
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            func post(_ path: String, _ body: String) async throws -> LoopbackHTTPClient.Response {
                try await server.client.send(method: .POST, path: path, body: Array(body.utf8), headers: key.bearer)
            }
            let base = String(SimulatedWallet.createBody("annex-c").dropLast())
            for path in ["/v1/requests", "/v1/transactions"] {
                let refused = try await post(path, base + #","allowedIssuers":null}"#)
                #expect(refused.status == 400, "\(path): \(refused.status) \(refused.text)")
                #expect(try errorCode(refused) == "input.malformed")
                #expect(refused.text.contains("allowedIssuers"), "\(refused.text)")
            }
            #expect(try await server.store.purge(expiredBefore: .distantFuture) == 0, "no refused request was stored")
            for path in ["/v1/requests", "/v1/transactions"] {
                #expect(try await post(path, base + "}").status == 201, "\(path) without allowedIssuers")
                #expect(try await post(path, base + #","allowedIssuers":[]}"#).status == 201, "\(path) with []")
            }
        }
    }

    @Test("an anchor the operator removes after the request named it: the document fails the chain (422), and new requests naming it are 400")
    func removedAnchor() async throws {
        let setup = try Setup()
        defer { setup.wallet.remove() }
        try await ServerFixture.withServer(setup.configuration, store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: Setup.body("apple-app", allowed: [setup.walletID])))
            try FileManager.default.removeItem(at: setup.walletAnchor)
            #expect(server.app.reloadTrust())
            let response = try setup.wallet.appleResponse(nonce: try #require(body["nonce"] as? String))
            let refused = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(refused.status == 422, "\(refused.text)")
            #expect(try errorCodes(refused) == ["issuer.chain_untrusted"])
            let again = try await server.client.post("/v1/requests", json: Setup.body("apple-app", allowed: [setup.walletID]))
            #expect(again.status == 400, "\(again.text)")
            #expect(try errorCode(again) == "input.malformed")
        }
    }
}
