import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

@Suite("MdocTesting: the kit's Annex C wallet (response shape, encryptionInfo, transcript)")
struct AnnexCWalletTests {
    @Test("the response is base64url without padding of [\"dcapi\", {enc, cipherText}] and opens to the DeviceResponse")
    func shape() throws {
        let pki = try TestPKI(seed: 1, at: Fixtures.time)
        let request = try AnnexCRequest(seed: 1, origin: "https://shop.example")
        let response = try MdocSimulator(pki: pki).simulate(.annexC(request), options: Fixtures.options())
        let text = try #require(response.annexCResponse)
        #expect(response.bytes == Array(text.utf8))
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        let outer = try CBORDecoder.decode(try #require(Base64URL.decode(text)))
        #expect(outer.array?.count == 2)
        #expect(outer.array?.first?.text == "dcapi")
        #expect(outer.array?.last?["enc"]?.bytes?.count == 65)
        #expect(try AnnexCHarness.open(text, request: request) == response.deviceResponse)
        // The plaintext is the bare DeviceResponse (no {"identity": …} wrapper).
        #expect(try CBORDecoder.decode(response.deviceResponse)["version"]?.text == "1.0")
        let session = AnnexCSession(privateKey: request.recipientKey, encryptionInfo: request.encryptionInfo, origin: request.origin, request: nil)
        let report = AnnexCVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore)).verify(response: text, session: session,
                                                                                                             at: Fixtures.time)
        #expect(expectation(report, .verified) == nil, "\(expectation(report, .verified) ?? "")")
    }

    @Test("encryptionInfo is [\"dcapi\", {nonce, recipientPublicKey}] and the transcript hashes it with the origin")
    func request() throws {
        let request = try AnnexCRequest(seed: 2, origin: "https://shop.example")
        let info = try CBORDecoder.decode(try #require(Base64URL.decode(request.encryptionInfo)))
        #expect(info.array?.first?.text == "dcapi")
        #expect(info.array?.last?["nonce"]?.bytes.map(Array.init) == request.nonce)
        #expect(info.array?.last?["recipientPublicKey"]?[intKey: 1]?.int == 2)
        #expect(request.transcript == .annexC(encryptionInfo: request.encryptionInfo, origin: "https://shop.example"))
    }

    @Test("the device signs the Annex C transcript: checked with another origin, device authentication alone fails")
    func otherOrigin() throws {
        let pki = try TestPKI(seed: 1, at: Fixtures.time)
        let request = try AnnexCRequest(seed: 1)
        let response = try MdocSimulator(pki: pki).simulate(.annexC(request), options: Fixtures.options())
        let plaintext = try AnnexCHarness.open(try #require(response.annexCResponse), request: request)
        let elsewhere = SessionTranscript.annexC(encryptionInfo: request.encryptionInfo, origin: "https://evil.example")
        let report = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore))
            .verify(deviceResponse: plaintext, transcript: elsewhere, at: Fixtures.time)
        #expect(report.errors.map(\.code) == [.deviceSignatureInvalid])
    }
}

extension AnnexCWalletTests {
    @Test("SimulatedCase verifies Annex C with AnnexCVerifier; deviceMac is refused there as for Apple")
    func simulatedCase() throws {
        let good = try SimulatedCase(format: .annexC, time: Fixtures.time).run()
        #expect(good.report.format == .annexC)
        #expect(good.failure == nil, "\(good.failure ?? "")")
        let mac = try SimulatedCase(format: .annexC, time: Fixtures.time) { $0.deviceAuthentication = .mac }.run()
        #expect(mac.expected == .rejected(.deviceAuthMissing))
        #expect(mac.failure == nil, "\(mac.failure ?? "")")
    }
}

extension AnnexCWalletTests {
    @Test("from the encryptionInfo text alone (what a wallet sees), the response verifies with the request's private key")
    func fromEncryptionInfo() throws {
        let request = try AnnexCRequest(seed: 6, origin: "https://shop.example")
        let pki = try TestPKI(seed: 1, at: Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(.annexCEncryptionInfo(request.encryptionInfo, origin: request.origin),
                                                            options: Fixtures.options())
        #expect(try AnnexCHarness.open(try #require(response.annexCResponse), request: request) == response.deviceResponse)
        #expect(throws: SimulationError.self) {
            try MdocSimulator(pki: pki).simulate(.annexCEncryptionInfo("not-an-encryption-info", origin: request.origin), options: Fixtures.options())
        }
    }
}
