import LoopbackClient
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import VerifyServer

/// Each way a consumed request's response can fail ends in 422 with the verifier's stable code.
@Suite("verify-server: rejected responses answer 422 with the error code")
struct RejectionTests {
    /// Posts `response` for a fresh sample-nonce request (with `policy`) and returns the answer.
    static func verify(response: String, policy: RequestPolicy = AppleSample.policy,
                       configuration: ServerConfiguration = AppleSample.configuration(),
                       store: (any RequestStore)? = nil) async throws -> LoopbackHTTPClient.Response {
        try await ServerFixture.withServer(configuration, store: store) { server in
            let request = AppleSample.request(policy: policy)
            try await server.store.insert(request)
            return try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id, response: response))
        }
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func expect422(_ response: LoopbackHTTPClient.Response, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
        let report = try jsonObject(response)
        #expect(report["verified"] as? Bool == false, sourceLocation: sourceLocation)
        let codes = try errorCodes(response)
        #expect(codes.contains(code), "\(codes)", sourceLocation: sourceLocation)
        #expect((report["documents"] as? [Any])?.isEmpty == true, "no element values in a rejection", sourceLocation: sourceLocation)
    }

    @Test("a response bound to another nonce (the server's random one): envelope.transcript_mismatch")
    func transcriptMismatch() async throws {
        try await ServerFixture.withServer { server in
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let id = try #require(try jsonObject(created)["requestId"] as? String)
            let response = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(id))
            try Self.expect422(response, "envelope.transcript_mismatch")
        }
    }

    @Test("text that is not base64: input.malformed (in a report; the request is consumed)")
    func notBase64() async throws {
        try Self.expect422(try await Self.verify(response: "%%% not base64 %%%"), "input.malformed")
    }

    @Test("base64 of bytes that are not CBOR: input.malformed")
    func notCBOR() async throws {
        try Self.expect422(try await Self.verify(response: Self.base64(Array("hello".utf8))), "input.malformed")
    }

    @Test("a flipped byte in the ciphertext tag: hpke.open_failed")
    func ciphertextFlip() async throws {
        var envelope = AppleSample.envelope
        envelope[envelope.count - 1] ^= 0x01
        try Self.expect422(try await Self.verify(response: Self.base64(envelope)), "hpke.open_failed")
    }

    @Test("a pkRHash naming no configured key: envelope.recipient_mismatch")
    func recipientMismatch() async throws {
        let envelope = AppleSample.envelope
        let hash = RecipientKeyRingHash.appleTest
        let start = try #require(Self.range(of: hash, in: envelope))
        var changed = envelope
        changed[start] ^= 0x01
        try Self.expect422(try await Self.verify(response: Self.base64(changed)), "envelope.recipient_mismatch")
    }

    @Test("elements the request did not ask for: policy.element_not_requested")
    func elementNotRequested() async throws {
        let narrow = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["family_name": false]])])
        try Self.expect422(try await Self.verify(response: AppleSample.envelopeBase64, policy: narrow), "policy.element_not_requested")
    }

    @Test("a docType the request did not ask for: policy.doctype_not_requested")
    func docTypeNotRequested() async throws {
        let other = RequestPolicy(documents: [.init(docType: "org.example.other", nameSpaces: ["org.example": ["x": false]])])
        try Self.expect422(try await Self.verify(response: AppleSample.envelopeBase64, policy: other), "policy.doctype_not_requested")
    }

    @Test("an IACA that did not issue the document: issuer.chain_untrusted")
    func untrustedChain() async throws {
        var configuration = AppleSample.configuration()
        configuration.trustStorePaths = [VectorFiles.url("Certificates/test/iso18013-5-annex-d-utopia-iaca.pem").path]
        try Self.expect422(try await Self.verify(response: AppleSample.envelopeBase64, configuration: configuration), "issuer.chain_untrusted")
    }

    @Test("verified long after the sample's validity: mso.expired")
    func expiredCertificates() async throws {
        let configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2040-01-01T00:00:00Z"))
        try Self.expect422(try await Self.verify(response: AppleSample.envelopeBase64, configuration: configuration), "mso.expired")
    }

    @Test("outside test mode a response to Apple's test key: envelope.test_key, production assurance")
    func testKeyRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyPath = folder.appendingPathComponent("merchant.pem").path
        try PrivateKey.generate(.p256).pkcs8PEM().write(toFile: keyPath, atomically: true, encoding: .utf8)
        var configuration = AppleSample.configuration(verificationTime: nil)
        configuration.testMode = false
        configuration.decryptionKeyPaths = [keyPath]
        configuration.store = .default
        let response = try await Self.verify(response: AppleSample.envelopeBase64, configuration: configuration, store: InMemoryRequestStore())
        try Self.expect422(response, "envelope.test_key")
        #expect(try jsonObject(response)["assurance"] as? String == "production")
    }

    static func range(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0 ... bytes.count - pattern.count).first { bytes[$0 ..< $0 + pattern.count].elementsEqual(pattern) }
    }
}

enum RecipientKeyRingHash {
    /// pkRHash of Apple's published test key (the sample's recipient).
    static var appleTest: [UInt8] { Hex.decode(AppleSampleVector.parameters["Encryption Key Hash"] ?? "") ?? [] }
}
