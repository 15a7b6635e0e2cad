import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The HAIP 1.0 profile of OpenID4VP (docs/formats.md §7.7): the request it makes, the settings it refuses, and one
/// row per answer rule, each with its code; the same answers under the default profile show which rules are HAIP's.
/// Requests come from `OpenID4VPWebRequest`, answers from the kit's wallet reading them.
@Suite("OpenID4VP: the HAIP profile")
struct HAIPProfileTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let origin = "https://shop.example"
    static let policy = RequestPolicy(documents: [
        .init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": true, "age_over_21": false]]),
        .init(docType: DocType.photoID, nameSpaces: [NameSpace.iso23220: ["family_name_unicode": false, "age_over_18": false]]),
    ])

    /// A request made by the product under `profile`, the kit wallet's reading of it, and the holder's issuer.
    struct Setup {
        let created: OpenID4VPWebRequest
        let wallet: OpenID4VPRequest
        let holder: TestPKI

        var mDLQuery: String { wallet.queries[0].id }
        var photoQuery: String { wallet.queries[1].id }

        func deviceResponse(_ docType: String) throws -> [UInt8] {
            var options = SimulationOptions(time: HAIPProfileTests.time)
            options.statusList = nil
            options.docType = docType
            options.elements = docType == DocType.mDL
                ? [ElementID(NameSpace.mDL, "family_name"), ElementID(NameSpace.mDL, "age_over_21")]
                : [ElementID(NameSpace.iso23220, "family_name_unicode"), ElementID(NameSpace.iso23220, "age_over_18")]
            return try MdocSimulator(pki: holder).simulate(.openID4VP(wallet), options: options).deviceResponse
        }

        /// Both queries answered, each with one DeviceResponse holding one mdoc.
        func conforming() throws -> [OpenID4VPRequest.Presentation] {
            [.init(queryID: mDLQuery, deviceResponses: [try deviceResponse(DocType.mDL)]),
             .init(queryID: photoQuery, deviceResponses: [try deviceResponse(DocType.photoID)])]
        }

        func verify(_ posted: String, profile: OpenID4VPProfile? = nil) -> VerificationReport {
            var session = created.session
            if let profile {
                session = OpenID4VPSession(origin: session.origin, nonce: session.nonce, responseMode: session.responseMode,
                                           encryptionKey: session.encryptionKey, jwk: session.jwk, queryIDs: session.queryIDs,
                                           queryDocTypes: session.queryDocTypes, request: session.request, profile: profile)
            }
            return OpenID4VPVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [holder.iaca]), revocation: .off))
                .verify(response: posted, session: session, at: HAIPProfileTests.time)
        }
    }

    static func setup(profile: OpenID4VPProfile = .haip, reader: ReaderIdentity? = nil) throws -> Setup {
        let identity = try reader ?? TestReaderPKI.shared().identity
        let created = try OpenID4VPWebRequest.create(origin: origin, request: policy, reader: identity, profile: profile)
        let wallet = try OpenID4VPRequest(protocolIdentifier: created.protocolIdentifier, data: created.data.serialized(), origin: origin)
        return Setup(created: created, wallet: wallet, holder: try TestPKI.shared(seed: 41, at: time))
    }

    static func status(_ report: VerificationReport, _ id: CheckID) -> [CheckStatus] {
        report.checks.filter { $0.id == id }.map(\.status)
    }

    /// The request object's header and payload of a signed request's `data`.
    static func requestObject(_ created: OpenID4VPWebRequest) throws -> (header: [String: Any], payload: [String: Any]) {
        let data = try #require(try JSONSerialization.jsonObject(with: Data(created.data.serialized().utf8)) as? [String: Any])
        let jws = try #require(data["request"] as? String)
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(segments.count == 3)
        let headerBytes = try #require(Base64URL.decodeStrict(segments[0]))
        let payloadBytes = try #require(Base64URL.decodeStrict(segments[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any])
        return (header, payload)
    }

    // MARK: The request

    @Test("the request: signed, x509_hash, x5c without the trust anchor, dc_api.jwt, both enc values, one P-256 ECDH-ES key with kid, DCQL with intent_to_retain")
    func request() throws {
        let readerPKI = try TestReaderPKI.shared()
        // The configured chain ends in its root: HAIP 1.0 §5 keeps the trust anchor out of x5c.
        let withRoot = try ReaderIdentity(key: readerPKI.identity.key, certificates: readerPKI.identity.certificates + [readerPKI.root])
        let setup = try Self.setup(reader: withRoot)
        #expect(setup.created.protocolIdentifier == "openid4vp-v1-signed")
        let (header, payload) = try Self.requestObject(setup.created)
        #expect(header["typ"] as? String == "oauth-authz-req+jwt")
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c == [Data(readerPKI.identity.certificates[0].derEncoded).base64EncodedString()])
        let leafHash = Base64URL.encode(Digest.hash(.sha256, readerPKI.identity.certificates[0].derEncoded))
        #expect(payload["client_id"] as? String == "x509_hash:" + leafHash)
        #expect(payload["expected_origins"] as? [String] == [Self.origin])
        #expect(payload["response_type"] as? String == "vp_token")
        #expect(payload["response_mode"] as? String == "dc_api.jwt")
        let metadata = try #require(payload["client_metadata"] as? [String: Any])
        #expect(metadata["encrypted_response_enc_values_supported"] as? [String] == ["A128GCM", "A256GCM"])
        let keys = try #require((metadata["jwks"] as? [String: Any])?["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        #expect(keys.first?["crv"] as? String == "P-256")
        #expect(keys.first?["alg"] as? String == "ECDH-ES")
        #expect((keys.first?["kid"] as? String)?.isEmpty == false)
        let credentials = try #require((payload["dcql_query"] as? [String: Any])?["credentials"] as? [[String: Any]])
        #expect(credentials.map { $0["format"] as? String } == ["mso_mdoc", "mso_mdoc"])
        let claims = try #require(credentials.first?["claims"] as? [[String: Any]])
        #expect(claims.allSatisfy { $0["intent_to_retain"] is Bool })
        #expect(setup.created.session.profile == .haip)
        // The key differs per request (HAIP 1.0 §5: ephemeral keys).
        let second = try Self.setup(reader: withRoot)
        #expect(second.created.session.jwk?.x != setup.created.session.jwk?.x)
    }

    @Test("the default profile keeps the trust anchor the operator configured in x5c (the HAIP rule is the profile's)")
    func defaultKeepsChain() throws {
        let readerPKI = try TestReaderPKI.shared()
        let withRoot = try ReaderIdentity(key: readerPKI.identity.key, certificates: readerPKI.identity.certificates + [readerPKI.root])
        let (header, _) = try Self.requestObject(try Self.setup(profile: .default, reader: withRoot).created)
        #expect((header["x5c"] as? [String])?.count == 2)
    }

    @Test("settings HAIP refuses: no reader identity, dc_api, x509_san_dns, a self-signed signing certificate; each message names the setting")
    func refusedSettings() throws {
        let readerPKI = try TestReaderPKI.shared()
        func refusal(reader: ReaderIdentity?, mode: OpenID4VPSession.ResponseMode = .dcAPIJWT,
                     prefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash) -> VerificationError? {
            do {
                _ = try OpenID4VPWebRequest.create(origin: Self.origin, request: Self.policy, responseMode: mode, reader: reader,
                                                   clientIDPrefix: prefix, profile: .haip)
                return nil
            } catch {
                return error
            }
        }
        let noReader = try #require(refusal(reader: nil))
        #expect(noReader.code == .inputMalformed)
        #expect(noReader.message.contains("readerKey and readerCertificates") && noReader.message.contains("--reader-key"))
        #expect(try #require(refusal(reader: readerPKI.identity, mode: .dcAPI)).message.contains("dc_api.jwt"))
        #expect(try #require(refusal(reader: readerPKI.identity, prefix: .x509SanDNS)).message.contains("x509_hash"))
        let issuer = try TestPKI(seed: 42, at: Self.time)  // its IACA is self-signed
        let selfSigned = try ReaderIdentity(key: issuer.iacaKey, certificates: [issuer.iaca])
        #expect(try #require(refusal(reader: selfSigned)).message.contains("self-signed"))
        // The same settings are fine under the default profile.
        #expect(OpenID4VPProfile.default.requestProblems(reader: nil, responseMode: .dcAPI).isEmpty)
        _ = try OpenID4VPWebRequest.create(origin: Self.origin, request: Self.policy, responseMode: .dcAPI)
    }

    // MARK: The answer, one rule per row

    /// One row: the answer's change, the code under HAIP, and what the default profile does with the same answer.
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let haipCode: ErrorCode?
        /// nil: the default profile verifies it.
        let defaultCode: ErrorCode?
        let answer: @Sendable (Setup) throws -> String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "conforming, A128GCM with kid", haipCode: nil, defaultCode: nil) { try $0.wallet.answer(try $0.conforming()) },
        Row(name: "conforming, A256GCM with kid", haipCode: nil, defaultCode: nil) {
            try $0.wallet.answer(try $0.conforming(), jwe: .init(encryption: "A256GCM"))
        },
        Row(name: "a plain dc_api answer (§5.2)", haipCode: .haipEncryptionRequired, defaultCode: .openID4VPEncryptionRequired) { setup in
            let token = try setup.conforming().map { ($0.queryID, JSONValue.array($0.deviceResponses.map { .string(Base64URL.encode($0)) })) }
            return JSONValue.object([("protocol", .string(setup.created.protocolIdentifier)),
                                     ("data", .object([("vp_token", .object(token))]))]).serialized()
        },
        Row(name: "alg other than ECDH-ES (§5)", haipCode: .haipAlgorithmNotAllowed, defaultCode: .jweAlgorithmUnsupported) {
            try $0.wallet.answer(try $0.conforming(), jwe: .init(algorithm: "ECDH-ES+A128KW"))
        },
        Row(name: "enc A192GCM (§5)", haipCode: .haipEncryptionNotAllowed, defaultCode: .jweEncryptionNotAllowed) {
            try $0.wallet.answer(try $0.conforming(), jwe: .init(encryption: "A192GCM"))
        },
        Row(name: "a JWE without kid (§5, OpenID4VP §8.3)", haipCode: .haipKeyIDRequired, defaultCode: nil) {
            try $0.wallet.answer(try $0.conforming(), jwe: .init(includesKeyID: false))
        },
        Row(name: "a bare string per query, the pre-1.0 shape (§5, OpenID4VP §8.1)", haipCode: .haipPresentationNotArray, defaultCode: nil) { setup in
            try setup.wallet.answer(vpToken: .object(try setup.conforming().map { ($0.queryID, .string(Base64URL.encode($0.deviceResponses[0]))) }))
        },
        Row(name: "two DeviceResponses in one vp_token entry (§5.3.1)", haipCode: .haipDeviceResponsesPerQuery, defaultCode: .vpTokenMalformed) { setup in
            let mDL = try setup.deviceResponse(DocType.mDL)
            return try setup.wallet.answer([.init(queryID: setup.mDLQuery, deviceResponses: [mDL, mDL]),
                                            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.photoID)])])
        },
        Row(name: "two mdocs in one DeviceResponse (§5.3.1)", haipCode: .haipDocumentsPerDeviceResponse, defaultCode: .vpTokenDocTypeMismatch) { setup in
            let both = try MergedDeviceResponse.of([try setup.deviceResponse(DocType.mDL), try setup.deviceResponse(DocType.photoID)])
            return try setup.wallet.answer([.init(queryID: setup.mDLQuery, deviceResponses: [both]),
                                            .init(queryID: setup.photoQuery, deviceResponses: [try setup.deviceResponse(DocType.photoID)])])
        },
    ]

    @Test("each HAIP answer rule: its code under HAIP, and what the default profile does with the same answer", arguments: rows)
    func answerRule(row: Row) throws {
        let setup = try Self.setup()
        let posted = try row.answer(setup)
        let haip = setup.verify(posted)
        if let code = row.haipCode {
            #expect(!haip.verified)
            #expect(haip.errors.map(\.code) == [code], "\(haip.errors)")
            #expect(haip.errors.first?.message.contains("HAIP 1.0 §5") == true)
            #expect(haip.documents.isEmpty)
        } else {
            #expect(haip.verified, "\(haip.errors)")
            #expect(Self.status(haip, CheckID.haipEncryption) == [.pass])
            #expect(Self.status(haip, CheckID.haipPresentation) == [.pass])
        }
        let plain = setup.verify(posted, profile: .default)
        if let code = row.defaultCode {
            #expect(plain.errors.map(\.code).first == code, "\(plain.errors)")
        } else {
            #expect(plain.verified, "\(plain.errors)")
        }
        // The default profile does not run the HAIP checks.
        #expect(Self.status(plain, CheckID.haipEncryption).isEmpty && Self.status(plain, CheckID.haipPresentation).isEmpty)
    }

    @Test("the profile survives the kept state; an unknown profile in the state makes it unusable, not the default")
    func keptState() throws {
        let setup = try Self.setup()
        let state = try OpenID4VPFlow.state(setup.created.session)
        #expect(state["profile"] == .string("haip"))
        #expect(try OpenID4VPFlow.session(state, request: nil).profile == .haip)
        #expect(throws: VerificationError(.inputMalformed, "the kept openid4vp state has an unusable profile; create the request again")) {
            try OpenID4VPFlow.session(try state.setting("profile", .string("haip2")), request: nil)
        }
        #expect(try OpenID4VPFlow.session(try state.setting("profile", nil), request: nil).profile == .default)
        #expect(try OpenID4VPFlow.state(try Self.setup(profile: .default).created.session)["profile"] == nil)
    }
}
