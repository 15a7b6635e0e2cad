import LoopbackClient
import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport
import Verifier
import VerifyServer

/// End to end with responses MdocTesting builds for the server's own nonce, EncryptionInfo or OpenID4VP request: each
/// format's round trip and replay, trust anchors (pinned signer, intermediate, VICAL), issuer identifiers, and a
/// representative fault per error area.
@Suite("verify-server end to end with the kit as the wallet: apple-app, annex-c and openid4vp")
struct SimulatedWalletTests {
    static let pinnedTime = VectorFiles.date("2026-06-01T12:00:00Z")

    static func created(_ response: LoopbackHTTPClient.Response) throws -> (id: String, body: [String: Any]) {
        #expect(response.status == 201, "\(response.text)")
        let body = try jsonObject(response)
        return (try #require(body["requestId"] as? String), body)
    }

    @Test("apple-app in production mode: create → the wallet answers the random nonce → 200 production → replay 409")
    func appleProduction() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        try await ServerFixture.withServer(wallet.configuration(), store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("apple-app")))
            let response = try wallet.appleResponse(nonce: try #require(body["nonce"] as? String))
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            let report = try jsonObject(verified)
            #expect(report["assurance"] as? String == "production")
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            let elements = try #require((document["elements"] as? [String: Any])?[SimulatedWallet.nameSpace] as? [String: Any])
            #expect(Set(elements.keys) == ["family_name", "given_name", "age_over_21"])
            let replay = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(replay.status == 409)
        }
    }

    @Test("openid4vp, browser-shaped: POST /v1/requests → {protocol, data} → the wallet answers from them alone → POST /v1/verify → the elements; dc_api.jwt and dc_api; a replay is 409",
          arguments: [OpenID4VPSession.ResponseMode.dcAPIJWT, .dcAPI])
    func openID4VPRoundTrip(mode: OpenID4VPSession.ResponseMode) async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        var configuration = wallet.configuration()
        configuration.openID4VPResponseMode = mode
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("openid4vp")))
            #expect(body["protocol"] as? String == "openid4vp-v1-unsigned")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["response_mode"] as? String == mode.rawValue)
            let response = try wallet.openID4VPResponse(protocolIdentifier: "openid4vp-v1-unsigned", data: data)
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            let report = try jsonObject(verified)
            #expect(report["format"] as? String == "openid4vp")
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            #expect(String(describing: document).contains("family_name"))
            let replay = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(replay.status == 409)
        }
    }

    @Test("a brainpoolP384r1 issuer whose document signer is pinned verifies through the server (annex-c), with the warning")
    func brainpoolPinnedSigner() async throws {
        let wallet = try SimulatedWallet(time: Date(), curve: .brainpoolP384r1, anchor: .documentSigner)
        defer { wallet.remove() }
        try await ServerFixture.withServer(wallet.configuration(), store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            let data = try #require(body["data"] as? [String: Any])
            let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.text.contains("not a self-signed root"))
            #expect(verified.text.contains("ES384"))
        }
    }

    @Test("a pinned intermediate CA anchors the document signer it issued through the server (apple-app), with the warning")
    func pinnedIntermediate() async throws {
        let wallet = try SimulatedWallet(time: Date(), anchor: .intermediate)
        defer { wallet.remove() }
        try await ServerFixture.withServer(wallet.configuration(), store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("apple-app")))
            let response = try wallet.appleResponse(nonce: try #require(body["nonce"] as? String), faults: [.intermediateCA])
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            let document = try #require((try jsonObject(verified)["documents"] as? [[String: Any]])?.first)
            let anchor = try #require((document["issuer"] as? [String: Any])?["anchor"] as? [String: Any])
            #expect(anchor["selfSigned"] as? Bool == false)
            #expect((anchor["subject"] as? String)?.contains("MdocTesting Intermediate CA") == true)
            #expect(verified.text.contains("not a self-signed root"))
        }
    }

    @Test("an IACA trusted through a configured VICAL: the report names the VICAL and its next update (annex-c)")
    func anchoredByVICAL() async throws {
        let time = Date()
        let wallet = try SimulatedWallet(time: time)
        defer { wallet.remove() }
        let builder = try VICALBuilder(seed: 3, at: time)
        let vical = try builder.build(entries: [.init(wallet.pki.iaca, docTypes: [DocType.mDL])], issueID: 31,
                                      date: time.addingTimeInterval(-3600), nextUpdate: time.addingTimeInterval(86_400), provider: "Test DTS")
        let vicalURL = wallet.folder.appendingPathComponent("vical.cbor")
        let rootURL = wallet.folder.appendingPathComponent("vical-root.pem")
        try Data(vical).write(to: vicalURL)
        try PEMText.certificate(builder.root).write(to: rootURL, atomically: true, encoding: .utf8)
        var configuration = wallet.configuration()
        configuration.trustStorePaths = []
        configuration.vicals = [VICALSource(file: vicalURL.path, root: rootURL.path)]
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            let data = try #require(body["data"] as? [String: Any])
            let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            let document = try #require((try jsonObject(verified)["documents"] as? [[String: Any]])?.first)
            let anchor = try #require((document["issuer"] as? [String: Any])?["anchor"] as? [String: Any])
            #expect((anchor["source"] as? String)?.hasPrefix("VICAL Test DTS issue 31 of ") == true)
            #expect(anchor["listStale"] as? Bool == false)
            #expect(anchor["listNextUpdate"] as? String != nil)
        }
    }

    @Test("issuer identifiers: apple-app requests return the trusted IACA's key identifier per docType; annex-c lists them when configured")
    func issuerIdentifiers() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let keyID = Base64URL.encode(try #require(wallet.pki.iaca.subjectKeyIdentifier))
        var configuration = wallet.configuration()
        configuration.requestIssuerIdentifiers = true
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let (id, apple) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("apple-app")))
            let offered = try #require(apple["issuerIdentifiers"] as? [String: [String]])
            #expect(offered == [DocType.mDL: [keyID]])
            // The wallet's document chains to that IACA: the filtered request still verifies.
            let response = try wallet.appleResponse(nonce: try #require(apple["nonce"] as? String))
            #expect(try await server.client.post("/v1/verify", json: verifyJSON(id, response: response)).status == 200)

            let (_, web) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            let data = try #require(web["data"] as? [String: Any])
            let text = try #require(data["deviceRequest"] as? String)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(text)))
            let iacaKeyID = try #require(wallet.pki.iaca.subjectKeyIdentifier)
            #expect(deviceRequest.docRequests.first?.itemsRequest.issuerIdentifiers == [iacaKeyID])
        }
        try await ServerFixture.withServer(wallet.configuration(), store: InMemoryRequestStore()) { server in
            let (_, web) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            let data = try #require(web["data"] as? [String: Any])
            let text = try #require(data["deviceRequest"] as? String)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(text)))
            #expect(deviceRequest.docRequests.first?.itemsRequest.issuerIdentifiers == [])
        }
    }

    @Test("annex-c: create returns {deviceRequest, encryptionInfo}; the wallet's response verifies (200), replay 409")
    func annexC() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        try await ServerFixture.withServer(wallet.configuration(), store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            #expect(body["nonce"] == nil)
            let data = try #require(body["data"] as? [String: Any])
            let encryptionInfo = try #require(data["encryptionInfo"] as? String)
            let deviceRequestText = try #require(data["deviceRequest"] as? String)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(deviceRequestText)))
            #expect(deviceRequest.policy == SimulatedWallet.policy)
            #expect(deviceRequest.readerAuthAll.isEmpty)

            let response = try wallet.annexCResponse(encryptionInfo: encryptionInfo)
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(try jsonObject(verified)["format"] as? String == "annex-c")
            let replay = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            #expect(replay.status == 409)
        }
    }

    @Test("annex-c with a configured reader identity: the DeviceRequest carries readerAuthAll")
    func annexCSigned() async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        let readerKey = try PrivateKey.generate(.p256)
        let certificate = try CertificateBuilder(subject: [("CN", "verify-server test reader")], notBefore: Date().addingTimeInterval(-3600),
                                                 notAfter: Date().addingTimeInterval(86400), publicKey: readerKey.publicKey)
            .sign(issuer: nil, issuerKey: readerKey)
        let keyPath = wallet.folder.appendingPathComponent("reader.pem")
        let certificatePath = wallet.folder.appendingPathComponent("reader-cert.pem")
        try readerKey.pkcs8PEM().write(to: keyPath, atomically: true, encoding: .utf8)
        try PEMText.certificate(certificate).write(to: certificatePath, atomically: true, encoding: .utf8)
        var configuration = wallet.configuration()
        configuration.readerKeyPath = keyPath.path
        configuration.readerCertificatePaths = [certificatePath.path]
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let (_, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
            let data = try #require(body["data"] as? [String: Any])
            let deviceRequestText = try #require(data["deviceRequest"] as? String)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(deviceRequestText)))
            #expect(deviceRequest.readerAuthAll.count == 1)
            let ready = try jsonObject(try await server.client.get("/readyz"))
            #expect(ready["readerAuthentication"] as? Bool == true)
            // openid4vp-redirect also needs the URL wallets reach the server at (walletBaseURL; this listener in test mode).
            #expect(ready["formats"] as? [String] == ["apple-app", "annex-c", "openid4vp"])
        }
    }

    /// A fault through the server for one format, with the expected HTTP answer.
    struct FaultRow: CustomTestStringConvertible, Sendable {
        let fault: Fault
        let format: VerificationReport.Format
        var testDescription: String { "\(fault.name) (\(format.rawValue))" }
    }

    /// One row per error area, spread over the three formats the server creates requests for: the server passes the
    /// library's verdict through (`FaultTableTests` asserts every fault in every format at the library; CI's
    /// conformance run sends every case through the server).
    static let representativeFaults: [FaultRow] = [
        FaultRow(fault: .truncatedEnvelope, format: .appleApp),                 // input
        FaultRow(fault: .wrongInfoHash, format: .appleApp),                     // envelope
        FaultRow(fault: .tamperedElementValue, format: .appleApp),              // digest
        FaultRow(fault: .documentSignerRevoked, format: .appleApp),             // revocation (CRL file)
        FaultRow(fault: .nonShortestCBOR, format: .appleApp),                   // must verify: 200
        FaultRow(fault: .corruptedCiphertext, format: .annexC),                 // hpke
        FaultRow(fault: .untrustedRoot, format: .annexC),                       // issuer
        FaultRow(fault: .msoExpired, format: .annexC),                          // mso
        FaultRow(fault: .deviceSignatureOtherTranscript, format: .annexC),      // device
        FaultRow(fault: .statusRevoked, format: .annexC),                       // status (status list file)
        FaultRow(fault: .encryptedToOtherKey, format: .openID4VP),              // jwe
        FaultRow(fault: .issuerCritUnknown, format: .openID4VP),                // cose
        FaultRow(fault: .documentErrorsConflict, format: .openID4VP),           // response
        FaultRow(fault: .duplicateDocType, format: .openID4VP),                 // policy
        FaultRow(fault: .statusListUntrusted, format: .openID4VP),              // status signer
        FaultRow(fault: .unknownMapKeys, format: .openID4VP),                   // must verify: 200
    ]

    @Test("a representative fault per error area: 422 with exactly the fault's code over HTTP, or 200 when it must verify",
          arguments: representativeFaults)
    func faultThroughServer(_ row: FaultRow) async throws {
        let fault = row.fault
        let wallet = try SimulatedWallet(time: Self.pinnedTime)
        defer { wallet.remove() }
        let configuration = try wallet.withRevocationFiles(wallet.configuration(testMode: true, pinnedTime: true), faults: [fault])
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            let (id, body) = try Self.created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody(row.format.rawValue)))
            let response: String
            switch row.format {
            case .appleApp:
                response = try wallet.appleResponse(nonce: try #require(body["nonce"] as? String), faults: [fault])
            case .annexC:
                let data = try #require(body["data"] as? [String: Any])
                response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String), faults: [fault])
            case .openID4VP:
                response = try wallet.openID4VPResponse(protocolIdentifier: try #require(body["protocol"] as? String),
                                                        data: try #require(body["data"]), faults: [fault])
            default:
                Issue.record("the server creates no requests for \(row.format.rawValue)")
                return
            }
            let answer = try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
            if let code = fault.expectedCode(format: row.format) {
                #expect(answer.status == 422, "\(fault.name): \(answer.status)")
                let codes = try errorCodes(answer)
                #expect(Set(codes) == [code.rawValue], "\(fault.name): \(codes)")
            } else {
                #expect(answer.status == 200, "\(fault.name): \(answer.text)")
            }
        }
    }

    @Test("the representative faults cover every format the server creates requests for")
    func representativeFaultsCoverFormats() {
        #expect(Set(Self.representativeFaults.map(\.format)) == [.appleApp, .annexC, .openID4VP])
        for row in Self.representativeFaults { #expect(row.fault.formats.contains(row.format), "\(row.testDescription)") }
    }
}
