import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier
import VerifyServer

/// `openid4vpProfile: haip` through the server: start-up refuses the settings HAIP cannot work with, naming them; a
/// created request follows HAIP 1.0's rules; a conforming answer verifies, a plain `dc_api` answer or a JWE without
/// `kid` is 422 with its `haip.*` code.
@Suite("verify-server: the OpenID4VP HAIP profile")
struct HAIPServerTests {
    /// The wallet's configuration with the HAIP profile and a reader identity (leaf and its root) written beside it.
    static func configuration(_ wallet: SimulatedWallet) throws -> (ServerConfiguration, TestReaderPKI) {
        let reader = try TestReaderPKI()
        let keyPath = wallet.folder.appendingPathComponent("reader.pem")
        let certificatePath = wallet.folder.appendingPathComponent("reader-chain.pem")
        try reader.identity.key.pkcs8PEM().write(to: keyPath, atomically: true, encoding: .utf8)
        try (PEMText.certificate(reader.identity.certificates[0]) + PEMText.certificate(reader.root))
            .write(to: certificatePath, atomically: true, encoding: .utf8)
        var configuration = wallet.configuration()
        configuration.openID4VPProfile = .haip
        configuration.readerKeyPath = keyPath.path
        configuration.readerCertificatePaths = [certificatePath.path]
        return (configuration, reader)
    }

    static func problems(_ configuration: ServerConfiguration) -> [String] {
        do {
            _ = try VerifierRuntime.load(configuration)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("start-up: haip without a reader identity, or with dc_api, is refused with the setting named; the file and environment key read")
    func startUp() throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var noReader = wallet.configuration()
        noReader.openID4VPProfile = .haip
        let missing = Self.problems(noReader)
        #expect(missing.count == 1)
        #expect(missing.first?.contains("openid4vpProfile haip") == true && missing.first?.contains("readerKey and readerCertificates") == true)

        var (plain, _) = try Self.configuration(wallet)
        plain.openID4VPResponseMode = .dcAPI
        let mode = Self.problems(plain)
        #expect(mode.count == 1)
        #expect(mode.first?.contains("dc_api.jwt") == true && mode.first?.contains("openid4vpResponseMode") == true)

        #expect(Self.problems(try Self.configuration(wallet).0).isEmpty)
        // The default profile needs neither.
        #expect(Self.problems(wallet.configuration()).isEmpty)

        let (fromEnvironment, environmentProblems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_OPENID4VP_PROFILE": "haip"])
        #expect(environmentProblems.isEmpty)
        #expect(fromEnvironment.openID4VPProfile == .haip)
        let (_, unknown) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_OPENID4VP_PROFILE": "strict"])
        #expect(unknown.contains { ($0.contains("OPENID4VP_PROFILE") || $0.contains("openid4vpProfile")) && $0.contains("default, haip") }, "\(unknown)")
    }

    @Test("a created request follows HAIP; a conforming answer → 200; a plain dc_api answer → 422 haip.encryption_required; no kid → 422 haip.kid_required")
    func requestAndAnswers() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let (configuration, reader) = try Self.configuration(wallet)
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            func create() async throws -> (id: String, body: [String: Any], wallet: OpenID4VPRequest) {
                let created = try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("openid4vp"))
                #expect(created.status == 201, "\(created.text)")
                let body = try jsonObject(created)
                let data = String(decoding: try JSONSerialization.data(withJSONObject: try #require(body["data"])), as: UTF8.self)
                let request = try OpenID4VPRequest(protocolIdentifier: try #require(body["protocol"] as? String), data: data,
                                                   origin: SimulatedWallet.origin)
                return (try #require(body["requestId"] as? String), body, request)
            }
            func deviceResponse(_ request: OpenID4VPRequest) throws -> [UInt8] {
                var options = SimulationOptions(time: wallet.time)
                options.statusList = nil
                options.elements = ["family_name", "given_name", "age_over_21"].map { ElementID(NameSpace.mDL, $0) }
                return try MdocSimulator(pki: wallet.pki).simulate(.openID4VP(request), options: options).deviceResponse
            }

            let (id, body, request) = try await create()
            #expect(body["protocol"] as? String == "openid4vp-v1-signed")
            let jws = try #require((body["data"] as? [String: Any])?["request"] as? String)
            let segments = jws.split(separator: ".").map(String.init)
            let headerBytes = try #require(Base64URL.decodeStrict(segments[0]))
            let payloadBytes = try #require(Base64URL.decodeStrict(segments[1]))
            let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any])
            // The configured chain ends in the reader root; x5c leaves it out (HAIP 1.0 §5).
            #expect(header["x5c"] as? [String] == [Data(reader.identity.certificates[0].derEncoded).base64EncodedString()])
            #expect((payload["client_id"] as? String)?.hasPrefix("x509_hash:") == true)
            #expect(payload["response_mode"] as? String == "dc_api.jwt")
            let metadata = try #require(payload["client_metadata"] as? [String: Any])
            #expect(metadata["encrypted_response_enc_values_supported"] as? [String] == ["A128GCM", "A256GCM"])

            let conforming = try await server.client.post("/v1/verify", json: verifyJSON(id, response: try request.answer([
                .init(queryID: request.queryID, deviceResponses: [try deviceResponse(request)]),
            ], jwe: .init(encryption: "A256GCM"))))
            #expect(conforming.status == 200, "\(conforming.text)")
            let checks = try #require(try jsonObject(conforming)["checks"] as? [[String: Any]])
            #expect(checks.contains { $0["id"] as? String == "haip.encryption" && $0["status"] as? String == "pass" })
            #expect(checks.contains { $0["id"] as? String == "haip.presentation" && $0["status"] as? String == "pass" })

            let (plainID, _, plainRequest) = try await create()
            let token = JSONValue.object([(plainRequest.queryID, .array([.string(Base64URL.encode(try deviceResponse(plainRequest)))]))])
            let plainAnswer = JSONValue.object([("protocol", .string("openid4vp-v1-signed")), ("data", .object([("vp_token", token)]))])
            let plain = try await server.client.post("/v1/verify", json: verifyJSON(plainID, response: plainAnswer.serialized()))
            #expect(plain.status == 422, "\(plain.text)")
            #expect(try errorCodes(plain) == ["haip.encryption_required"])

            let (noKidID, _, noKidRequest) = try await create()
            let noKid = try await server.client.post("/v1/verify", json: verifyJSON(noKidID, response: try noKidRequest.answer([
                .init(queryID: noKidRequest.queryID, deviceResponses: [try deviceResponse(noKidRequest)]),
            ], jwe: .init(includesKeyID: false))))
            #expect(noKid.status == 422, "\(noKid.text)")
            #expect(try errorCodes(noKid) == ["haip.kid_required"])
        }
    }
}
