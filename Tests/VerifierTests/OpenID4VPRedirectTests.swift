import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// OpenID4VP without the Digital Credentials API (docs/formats.md §8): the request by reference the product makes, the
/// request object a wallet fetches, and one row per rule of the answer posted to `response_uri`, each with its code.
/// Answers come from the kit's wallet, which reads (and checks) the product's request object.
@Suite("OpenID4VP redirect flow")
struct OpenID4VPRedirectTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let requestURI = "https://verifier.example/v1/wallet/openid4vp/request/tx-1"
    static let responseURI = "https://verifier.example/v1/wallet/openid4vp/response/tx-1"
    static let policy = RequestPolicy(documents: [
        .init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": true, "age_over_21": false]]),
    ])

    /// A request the product made, the kit wallet's reading of its request object, and the holder's issuer.
    struct Setup {
        let created: OpenID4VPRedirectRequest
        let wallet: OpenID4VPRedirectWalletRequest
        let holder: TestPKI
        var session: OpenID4VPRedirectSession { created.session }

        func deviceResponse(for wallet: OpenID4VPRedirectWalletRequest? = nil) throws -> [UInt8] {
            try simulated(wallet ?? self.wallet).deviceResponse
        }

        /// The kit's whole answer (the form body) to `wallet` (this request's, unless a test changed a value).
        func answer(_ wallet: OpenID4VPRedirectWalletRequest? = nil) throws -> String {
            try #require(try simulated(wallet ?? self.wallet).textAnswer)
        }

        private func simulated(_ wallet: OpenID4VPRedirectWalletRequest) throws -> SimulatedResponse {
            var options = SimulationOptions(time: OpenID4VPRedirectTests.time)
            options.statusList = nil
            options.elements = [ElementID(NameSpace.mDL, "family_name"), ElementID(NameSpace.mDL, "age_over_21")]
            return try MdocSimulator(pki: holder).simulate(.openID4VPRedirect(wallet), options: options)
        }

        func verify(_ body: String, session: OpenID4VPRedirectSession? = nil, at time: Date = OpenID4VPRedirectTests.time) -> VerificationReport {
            ResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [holder.iaca]), revocation: .off))
                .verify(directPost: body, session: session ?? self.session, request: OpenID4VPRedirectTests.policy, at: time)
        }

        /// The form with `edit` applied to the request's values the wallet answers with.
        func answer(editing edit: (inout WalletValues) -> Void) throws -> String {
            var values = WalletValues(wallet)
            edit(&values)
            return try answer(values.request)
        }
    }

    /// The values of a wallet's request, for a row that changes one.
    struct WalletValues {
        var clientID, responseURI, nonce, state: String
        var mode: OpenID4VPRedirectSession.ResponseMode
        var jwk: EncryptionJWK?
        var queries: [OpenID4VPRequest.CredentialQuery]

        init(_ request: OpenID4VPRedirectWalletRequest) {
            (clientID, responseURI, nonce, state, mode, jwk, queries) = (request.clientID, request.responseURI, request.nonce, request.state,
                                                                         request.responseMode, request.jwk, request.queries)
        }

        var request: OpenID4VPRedirectWalletRequest {
            OpenID4VPRedirectWalletRequest(clientID: clientID, responseURI: responseURI, nonce: nonce, state: state, responseMode: mode,
                                           jwk: jwk, queries: queries)
        }
    }

    static func setup(mode: OpenID4VPRedirectSession.ResponseMode = .directPostJWT, profile: OpenID4VPProfile = .default,
                      walletNonce: String? = "wallet-nonce-1") throws -> Setup {
        let reader = try TestReaderPKI.shared().identity
        let created = try OpenID4VPRedirectRequest.create(policy: policy, reader: reader, requestURI: requestURI, responseURI: responseURI,
                                                          expiresAt: time + 300, responseMode: mode, profile: profile)
        let authorization = try OpenID4VPAuthorizationRequest(url: created.authorizationRequest())
        let jws = try created.session.requestObject(reader: reader, walletNonce: walletNonce, issuedAt: time)
        let wallet = try OpenID4VPRedirectWalletRequest(requestObject: jws, clientID: authorization.clientID, walletNonce: walletNonce)
        return Setup(created: created, wallet: wallet, holder: try TestPKI.shared(seed: 41, at: time))
    }

    static func codes(_ report: VerificationReport) -> [ErrorCode] { report.errors.map(\.code) }

    @Test("the kit wallet's answer verifies in both response modes, with the redirect handover, its state and its JWE checked")
    func baseline() throws {
        for mode in OpenID4VPRedirectSession.ResponseMode.allCases {
            let setup = try Self.setup(mode: mode)
            let report = setup.verify(try setup.answer())
            #expect(report.verified, "\(mode): \(report.errors)")
            #expect(report.format == .openID4VPRedirect)
            #expect(report.checks.contains { $0.id == .redirectState && $0.status == .pass })
            #expect(report.checks.contains { $0.id == .jweDecrypt && $0.status == .pass } == (mode == .directPostJWT))
            #expect(report.documents.first?.elements[NameSpace.mDL]?.keys.sorted() == ["age_over_21", "family_name"])
        }
    }

    @Test("the authorization request carries client_id, request_uri and request_uri_method=post, percent-encoded, under any scheme")
    func authorizationRequest() throws {
        let setup = try Self.setup()
        let url = setup.created.authorizationRequest()
        #expect(url.hasPrefix("openid4vp://?client_id=x509_hash%3A"))
        let parsed = try OpenID4VPAuthorizationRequest(url: url)
        #expect(parsed.clientID == setup.session.clientID)
        #expect(parsed.requestURI == Self.requestURI)
        #expect(parsed.requestURIMethod == "post")
        let sameDevice = setup.created.authorizationRequest(scheme: "https://wallet.example/authorize?lang=en")
        #expect(try OpenID4VPAuthorizationRequest(url: sameDevice).clientID == setup.session.clientID)
        #expect(sameDevice.hasPrefix("https://wallet.example/authorize?lang=en&client_id="))
    }

    @Test("the request object: typ, x5c, the parameters of OpenID4VP 1.0 §5 and the wallet_nonce echoed; a fresh nonce and state per request")
    func requestObject() throws {
        let setup = try Self.setup()
        let reader = try TestReaderPKI.shared().identity
        let jws = try setup.session.requestObject(reader: reader, walletNonce: "n-1", issuedAt: Self.time)
        let parts = jws.split(separator: ".").map(String.init)
        let headerBytes = try #require(Base64URL.decodeStrict(parts[0]))
        let payloadBytes = try #require(Base64URL.decodeStrict(parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any])
        #expect(header["typ"] as? String == "oauth-authz-req+jwt")
        #expect(header["alg"] as? String == "ES256")
        #expect((header["x5c"] as? [String])?.isEmpty == false)
        #expect(payload["client_id"] as? String == setup.session.clientID)
        #expect(payload["response_type"] as? String == "vp_token")
        #expect(payload["response_mode"] as? String == "direct_post.jwt")
        #expect(payload["response_uri"] as? String == Self.responseURI)
        #expect(payload["nonce"] as? String == setup.session.nonce)
        #expect(payload["state"] as? String == setup.session.state)
        #expect(payload["aud"] as? String == "https://self-issued.me/v2")
        #expect(payload["wallet_nonce"] as? String == "n-1")
        #expect(payload["exp"] as? Int == Int(Self.time.timeIntervalSince1970) + 300)
        let metadata = try #require(payload["client_metadata"] as? [String: Any])
        #expect(metadata["encrypted_response_enc_values_supported"] as? [String] == ["A128GCM", "A256GCM"])
        let key = try #require(((metadata["jwks"] as? [String: Any])?["keys"] as? [[String: Any]])?.first)
        #expect(key["kid"] as? String == setup.session.jwk?.kid)
        #expect(key["alg"] as? String == "ECDH-ES")
        let credentials = try #require((payload["dcql_query"] as? [String: Any])?["credentials"] as? [[String: Any]])
        #expect(credentials.map { $0["id"] as? String } == setup.session.queryIDs)
        // GET (no wallet_nonce): none in the object.
        let plainGet = try setup.session.requestObject(reader: reader, issuedAt: Self.time)
        #expect(!String(decoding: Base64URL.decodeStrict(String(plainGet.split(separator: ".")[1])) ?? [], as: UTF8.self).contains("wallet_nonce"))

        let other = try Self.setup()
        #expect(other.session.nonce != setup.session.nonce)
        #expect(other.session.state != setup.session.state)
        #expect(other.session.jwk?.x != setup.session.jwk?.x)
    }

    @Test("the kit wallet refuses what a wallet must: another signer, another client_id, wallet_nonce not echoed, another typ")
    func walletChecks() throws {
        let setup = try Self.setup()
        let reader = try TestReaderPKI.shared().identity
        let jws = try setup.session.requestObject(reader: reader, walletNonce: "n-1", issuedAt: Self.time)
        #expect(throws: SimulationError.self) {
            try OpenID4VPRedirectWalletRequest(requestObject: jws, clientID: "x509_hash:AAAA", walletNonce: "n-1")
        }
        #expect(throws: SimulationError.self) {
            try OpenID4VPRedirectWalletRequest(requestObject: jws, clientID: setup.session.clientID, walletNonce: "n-2")
        }
        // Signed by another reader whose certificate the client_id does not name.
        let otherReader = try TestReaderPKI.shared(seed: 2, commonName: "Other Reader").identity
        let otherSession = try OpenID4VPRedirectRequest.create(policy: Self.policy, reader: otherReader, requestURI: Self.requestURI,
                                                               responseURI: Self.responseURI, expiresAt: Self.time + 300).session
        let byOther = try otherSession.requestObject(reader: otherReader, issuedAt: Self.time)
        #expect(throws: SimulationError.self) {
            try OpenID4VPRedirectWalletRequest(requestObject: byOther, clientID: setup.session.clientID, walletNonce: nil)
        }
        // The right header and payload under another key's signature.
        var parts = jws.split(separator: ".").map(String.init)
        parts[2] = String(byOther.split(separator: ".")[2])
        #expect(throws: SimulationError.self) {
            try OpenID4VPRedirectWalletRequest(requestObject: parts.joined(separator: "."), clientID: setup.session.clientID, walletNonce: "n-1")
        }
        #expect(throws: SimulationError.self) {
            try OpenID4VPRedirectWalletRequest(requestObject: "a.b", clientID: setup.session.clientID, walletNonce: nil)
        }
    }

    @Test("the transcript binds client_id, nonce, response_uri and the key: an answer signed over another of each is refused")
    func transcriptBinding() throws {
        let setup = try Self.setup()
        let edits: [(String, (inout WalletValues) -> Void)] = [
            ("nonce", { $0.nonce = "another-nonce" }),
            ("response_uri", { $0.responseURI = "https://attacker.example/response" }),
            ("client_id", { $0.clientID = "x509_san_dns:attacker.example" }),
        ]
        for (name, edit) in edits {
            #expect(Self.codes(setup.verify(try setup.answer(editing: edit))) == [.deviceSignatureInvalid], "\(name)")
        }
        // The DC API handover over the same nonce: another transcript altogether.
        let plain = try Self.setup(mode: .directPost)
        var values = WalletValues(plain.wallet)
        values.jwk = setup.session.jwk
        let withThumbprint = try plain.deviceResponse(for: OpenID4VPRedirectWalletRequest(
            clientID: values.clientID, responseURI: values.responseURI, nonce: values.nonce, state: values.state, responseMode: .directPostJWT,
            jwk: values.jwk, queries: values.queries))
        let body = try plain.wallet.answer([.init(queryID: plain.session.queryIDs[0], deviceResponses: [withThumbprint])], state: plain.session.state)
        #expect(Self.codes(plain.verify(body)) == [.deviceSignatureInvalid], "a thumbprint where direct_post binds null")
    }

    @Test("the flow's precheck decrypts the JWE once: verify reads that plaintext, with the same checks as verifying the text alone")
    func precheckOpensOnce() throws {
        let setup = try Self.setup()
        let environment = FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [setup.holder.iaca]), revocation: .off),
                                          readerIdentity: try TestReaderPKI.shared().identity)
        let flow = OpenID4VPRedirectFlow(environment)
        let state = try OpenID4VPRedirectFlow.state(setup.session)
        let body = try setup.answer()
        let answer = try flow.precheck(response: body, state: state)
        #expect(answer.opened != nil)
        let reused = flow.verify(answer, state: state, policy: Self.policy, at: Self.time, noting: nil)
        let alone = flow.verify(response: body, state: state, policy: Self.policy, at: Self.time)
        #expect(reused.verified, "\(reused.errors)")
        #expect(reused.checks.map(\.id) == alone.checks.map(\.id))
        #expect(reused.checks.map(\.status) == alone.checks.map(\.status))
        // What verify reads is the precheck's plaintext, not the body again: another answer's plaintext under this body
        // is judged as that answer (signed over another nonce).
        let other = try flow.precheck(response: try setup.answer(editing: { $0.nonce = "another-nonce" }), state: state)
        let swapped = flow.verify(PrecheckedAnswer(body, opened: try #require(other.opened)), state: state, policy: Self.policy, at: Self.time,
                                  noting: nil)
        #expect(Self.codes(swapped) == [.deviceSignatureInvalid])
        // A plain answer opens nothing.
        let plain = try Self.setup(mode: .directPost)
        #expect(try flow.precheck(response: try plain.answer(), state: try OpenID4VPRedirectFlow.state(plain.session)).opened == nil)
    }

    @Test("kept state: the session's own members; an earlier version's one `session` member of JSON text reads the same; a missing member is named")
    func keptState() throws {
        let setup = try Self.setup()
        let state = try OpenID4VPRedirectFlow.state(setup.session)
        #expect(state["nonce"] == .string(setup.session.nonce) && state["session"] == nil)
        let earlier = try KeptState(["session": String(decoding: try JSONEncoder().encode(setup.session), as: UTF8.self)])
        for kept in [state, earlier] {
            let read = try OpenID4VPRedirectFlow.session(kept)
            #expect(read.nonce == setup.session.nonce && read.state == setup.session.state && read.jwk == setup.session.jwk)
            #expect(read.expiresAt == setup.session.expiresAt)
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept openid4vp-redirect state has no responseURI; create the request again")) {
            try OpenID4VPRedirectFlow.session(try state.setting("responseURI", nil))
        }
        // The server's request-object route reports an unusable stored request under the flow's own code.
        let flow = OpenID4VPRedirectFlow(FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])),
                                                         readerIdentity: try TestReaderPKI.shared().identity))
        let unusable = #expect(throws: VerificationError.self) {
            try flow.requestObject(state: .empty, walletNonce: nil, walletMetadata: nil, at: Self.time)
        }
        #expect(unusable?.code == .redirectRequestInvalid, "\(String(describing: unusable))")
        #expect(unusable?.message.hasPrefix("the stored openid4vp-redirect request is unusable: the kept openid4vp-redirect state") == true,
                "\(String(describing: unusable))")
    }

    @Test("state: missing, another request's, or a form state beside the JWE's that differs")
    func state() throws {
        let setup = try Self.setup()
        let deviceResponse = try setup.deviceResponse()
        let presentation = [OpenID4VPRequest.Presentation(queryID: setup.session.queryIDs[0], deviceResponses: [deviceResponse])]
        #expect(Self.codes(setup.verify(try setup.wallet.answer(presentation, state: nil))) == [.redirectStateMismatch])
        #expect(Self.codes(setup.verify(try setup.wallet.answer(presentation, state: "another-state"))) == [.redirectStateMismatch])
        let good = try setup.wallet.answer(presentation, state: setup.session.state)
        #expect(setup.verify(good).verified)
        #expect(Self.codes(setup.verify(good + "&state=another-state")) == [.redirectStateMismatch])
        #expect(setup.verify(good + "&state=" + setup.session.state).verified)

        let plain = try Self.setup(mode: .directPost)
        let plainPresentation = [OpenID4VPRequest.Presentation(queryID: plain.session.queryIDs[0], deviceResponses: [try plain.deviceResponse()])]
        #expect(Self.codes(plain.verify(try plain.wallet.answer(plainPresentation, state: nil))) == [.redirectStateMismatch])
        #expect(Self.codes(plain.verify(try plain.wallet.answer(plainPresentation, state: setup.session.state))) == [.redirectStateMismatch])
    }

    @Test("the form: wallet error, downgrade, mode mismatch, duplicate or conflicting parameters, empty, bad escapes, expired")
    func form() throws {
        let setup = try Self.setup()
        let encrypted = try setup.answer()
        let walletError = setup.verify(setup.wallet.errorAnswer("access_denied", description: "user declined"))
        #expect(Self.codes(walletError) == [.openID4VPWalletError])
        #expect(walletError.errors.first?.message.contains("access_denied") == true)
        #expect(Self.codes(setup.verify("error=access_denied&state=another")) == [.redirectStateMismatch])
        #expect(Self.codes(setup.verify("error=access_denied")) == [.redirectStateMismatch], "an error without the request's state")

        let plain = try Self.setup(mode: .directPost)
        let plainBody = try plain.answer()
        #expect(Self.codes(setup.verify(plainBody)) == [.openID4VPEncryptionRequired], "plain to a direct_post.jwt request")
        #expect(Self.codes(plain.verify(encrypted)) == [.inputMalformed], "encrypted to a direct_post request")
        #expect(Self.codes(setup.verify(encrypted + "&" + encrypted)) == [.inputMalformed], "response twice")
        #expect(Self.codes(setup.verify(encrypted + "&vp_token=%7B%7D")) == [.inputMalformed], "both response and vp_token")
        #expect(Self.codes(setup.verify("")) == [.inputMalformed])
        #expect(Self.codes(setup.verify("response=%ZZ")) == [.inputMalformed])
        #expect(Self.codes(setup.verify("response=not-a-jwe")) == [.jweMalformed])
        #expect(Self.codes(plain.verify("vp_token=not-json&state=" + plain.session.state)) == [.vpTokenMalformed])
        #expect(Self.codes(setup.verify(encrypted, at: Self.time + 300)) == [.redirectExpired])
        #expect(setup.verify(encrypted, at: Self.time + 299).verified)
    }

    @Test("the JWE: sealed to another key, corrupted, an enc not offered")
    func jwe() throws {
        let setup = try Self.setup()
        let presentation = [OpenID4VPRequest.Presentation(queryID: setup.session.queryIDs[0], deviceResponses: [try setup.deviceResponse()])]
        let otherKey = try PrivateKey.generate(.p256).publicKey
        #expect(Self.codes(setup.verify(try setup.wallet.answer(presentation, state: setup.session.state, recipient: otherKey)))
                == [.jweDecryptionFailed])
        #expect(Self.codes(setup.verify(try setup.wallet.answer(presentation, state: setup.session.state, corruptCiphertext: true)))
                == [.jweDecryptionFailed])
        let cbc = OpenID4VPRequest.JWEOptions(encryption: "A128CBC-HS256")
        #expect(Self.codes(setup.verify(try setup.wallet.answer(presentation, state: setup.session.state, jwe: cbc))) == [.jweEncryptionNotAllowed])
        let a256 = OpenID4VPRequest.JWEOptions(encryption: "A256GCM")
        #expect(setup.verify(try setup.wallet.answer(presentation, state: setup.session.state, jwe: a256)).verified)
    }

    @Test("vp_token: empty, another query id; the HAIP profile: its answer verifies, a plain one is refused")
    func vpToken() throws {
        let setup = try Self.setup()
        let deviceResponse = try setup.deviceResponse()
        #expect(Self.codes(setup.verify(try setup.wallet.answer([], state: setup.session.state))) == [.vpTokenMalformed])
        let otherID = [OpenID4VPRequest.Presentation(queryID: "another_query", deviceResponses: [deviceResponse])]
        #expect(Self.codes(setup.verify(try setup.wallet.answer(otherID, state: setup.session.state))).first == .vpTokenMalformed)

        let haip = try Self.setup(profile: .haip)
        #expect(haip.verify(try haip.answer()).verified)
        let plain = try Self.setup(mode: .directPost)
        let haipSession = OpenID4VPRedirectSession(
            clientID: plain.session.clientID, requestURI: plain.session.requestURI, responseURI: plain.session.responseURI,
            nonce: plain.session.nonce, state: plain.session.state, responseMode: .directPost, encryptionKey: nil, jwk: nil,
            queryIDs: plain.session.queryIDs, queryDocTypes: plain.session.queryDocTypes, dcqlQuery: plain.session.dcqlQuery, profile: .haip,
            expiresAt: plain.session.expiresAt)
        #expect(Self.codes(plain.verify(try plain.answer(), session: haipSession)) == [.haipEncryptionRequired])
    }

    @Test("wallet_metadata: what rules the request out is refused by name; unknown members are ignored; not JSON, a member twice, or a wrong type, is invalid")
    func walletMetadata() throws {
        let setup = try Self.setup()
        let reader = try TestReaderPKI.shared().identity
        func code(_ metadata: String?, nonce: String? = "n") -> ErrorCode? {
            do throws(VerificationError) {
                _ = try setup.session.requestObject(reader: reader, walletNonce: nonce, walletMetadata: metadata, issuedAt: Self.time)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(nil) == nil)
        #expect(code(#"{"vp_formats_supported":{"mso_mdoc":{}},"request_object_signing_alg_values_supported":["ES256"],"x":1}"#) == nil)
        #expect(code(#"{"authorization_encryption_enc_values_supported":["A256GCM","A128CBC-HS256"]}"#) == nil)
        #expect(code(#"{"request_object_signing_alg_values_supported":["RS256"]}"#) == .redirectWalletUnsupported)
        #expect(code(#"{"client_id_prefixes_supported":["redirect_uri"]}"#) == .redirectWalletUnsupported)
        #expect(code(#"{"authorization_encryption_alg_values_supported":["ECDH-1PU"]}"#) == .redirectWalletUnsupported)
        #expect(code(#"{"authorization_encryption_enc_values_supported":["A128CBC-HS256"]}"#) == .redirectWalletUnsupported)
        #expect(code(#"{"vp_formats_supported":{"dc+sd-jwt":{}}}"#) == .redirectWalletUnsupported)
        #expect(code("not json") == .redirectRequestInvalid)
        #expect(code("[]") == .redirectRequestInvalid)
        #expect(code(#"{"request_object_signing_alg_values_supported":"ES256"}"#) == .redirectRequestInvalid)
        // A member named twice: one reader would honour the first list, another the second.
        #expect(code(#"{"request_object_signing_alg_values_supported":["ES256"],"request_object_signing_alg_values_supported":["RS256"]}"#)
                == .redirectRequestInvalid)
        #expect(code(#"{"vp_formats_supported":1}"#) == .redirectRequestInvalid)
        #expect(code(#"{"vp_formats_supported":["mso_mdoc"]}"#) == .redirectRequestInvalid)
        #expect(code("{\"a\":\"" + String(repeating: "x", count: 20_000) + "\"}") == .redirectRequestInvalid)
        #expect(code(nil, nonce: String(repeating: "n", count: 257)) == .redirectRequestInvalid)
        #expect(code(nil, nonce: String(repeating: "n", count: 256)) == nil)
        // The reader certificate changed since the request was made.
        let otherReader = try TestReaderPKI.shared(seed: 2, commonName: "Other Reader").identity
        #expect(throws: VerificationError.self) { try setup.session.requestObject(reader: otherReader, issuedAt: Self.time) }
    }

    @Test("the published URLs: https, or http to a loopback host; absolute, no fragment or user; HAIP refuses direct_post and x509_san_dns")
    func creationRules() throws {
        let reader = try TestReaderPKI.shared().identity
        func code(request: String = Self.requestURI, response: String = Self.responseURI,
                  mode: OpenID4VPRedirectSession.ResponseMode = .directPostJWT, prefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash,
                  profile: OpenID4VPProfile = .default) -> ErrorCode? {
            do throws(VerificationError) {
                _ = try OpenID4VPRedirectRequest.create(policy: Self.policy, reader: reader, requestURI: request, responseURI: response,
                                                        expiresAt: Self.time + 60, clientIDPrefix: prefix, responseMode: mode, profile: profile)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code() == nil)
        #expect(code(request: "http://127.0.0.1:8080/r/1", response: "http://localhost:8080/p/1") == nil)
        #expect(code(request: "http://verifier.example/r/1") == .redirectRequestInvalid)
        #expect(code(response: "http://10.0.0.1/p/1") == .redirectRequestInvalid)
        #expect(code(response: "/relative") == .redirectRequestInvalid)
        #expect(code(response: "https://verifier.example/p#frag") == .redirectRequestInvalid)
        #expect(code(request: "https://user:pw@verifier.example/r") == .redirectRequestInvalid)
        #expect(code(request: "https://verifier.example/" + String(repeating: "a", count: 2_100)) == .redirectRequestInvalid)
        #expect(code(prefix: .x509SanDNS) == .inputMalformed, "the test reader certificate has no dNSName")
        #expect(code(mode: .directPost, profile: .haip) == .inputMalformed)
        #expect(throws: VerificationError.self) {
            try OpenID4VPRedirectRequest.create(policy: RequestPolicy(documents: []), reader: reader, requestURI: Self.requestURI,
                                                responseURI: Self.responseURI, expiresAt: Self.time + 60)
        }
    }

    @Test("the kept session round-trips as JSON (the key as PKCS #8) and still verifies the answer; a damaged key is a decoding error")
    func keptSession() throws {
        let setup = try Self.setup()
        let data = try JSONEncoder().encode(setup.session)
        let decoded = try JSONDecoder().decode(OpenID4VPRedirectSession.self, from: data)
        #expect(decoded == setup.session)
        #expect(setup.verify(try setup.answer(), session: decoded).verified)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["encryptionKey"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(OpenID4VPRedirectSession.self, from: try JSONSerialization.data(withJSONObject: object))
        }
        object["encryptionKey"] = nil
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(OpenID4VPRedirectSession.self, from: try JSONSerialization.data(withJSONObject: object))
        }
        let plain = try Self.setup(mode: .directPost)
        let plainDecoded = try JSONDecoder().decode(OpenID4VPRedirectSession.self, from: try JSONEncoder().encode(plain.session))
        #expect(plainDecoded == plain.session)
        #expect(plainDecoded.encryptionKey == nil)
    }
}
