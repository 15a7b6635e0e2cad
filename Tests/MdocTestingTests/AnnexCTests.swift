import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocTesting
import Testing
import Verifier

@Suite("MdocTesting: Annex C responses")
struct AnnexCTests {
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
        guard case .report(let report) = try AnnexCHarness.verify(response, request: request, pki: pki) else {
            Issue.record("HPKE open failed")
            return
        }
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

    @Test("the device signs the Annex C transcript: another origin fails device authentication only")
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
