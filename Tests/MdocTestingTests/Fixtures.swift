import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocTesting
import Testing
import Verifier

/// Shared inputs: a fixed verification time so that runs are reproducible.
enum Fixtures {
    static let time = RFC3339.parseDateTime("2026-06-01T12:00:00Z") ?? Date(timeIntervalSince1970: 1_780_315_200)

    static func appleRequest(seed: UInt64 = 1) throws -> (AppleAppRequest, PrivateKey) {
        let material = SeedMaterial(seed)
        let key = try material.key("merchant", curve: .p256)
        let request = AppleAppRequest(merchantKey: key.publicKey, nonce: material.bytes("nonce", count: 32),
                                      merchantID: SimulatedCase.merchantID, teamID: SimulatedCase.teamID)
        return (request, key)
    }

    static func options(_ faults: [Fault] = [], configure: (inout SimulationOptions) -> Void = { _ in }) -> SimulationOptions {
        var options = SimulationOptions(time: time, faults: faults)
        configure(&options)
        return options
    }

    /// The MSO of the first document of a DeviceResponse, decoded from its issuerAuth payload.
    static func mso(ofDeviceResponse bytes: [UInt8]) throws -> CBORItem {
        let response = try CBORDecoder.decode(bytes)
        let document = try #require(response["documents"]?.array?.first)
        let payload = try #require(document["issuerSigned"]?["issuerAuth"]?.array?[2].bytes)
        return try CBORDecoder.decode(payload).decodeEmbedded().item
    }
}

/// Opens an Annex C response the way ISO/IEC 18013-7 Annex C describes (base64url → `["dcapi", {enc, cipherText}]`
/// → HPKE open with the request's key and transcript) and verifies the DeviceResponse inside. The library has no
/// Annex C front-end yet; this stands in for it in the tests.
enum AnnexCHarness {
    enum Outcome {
        case openFailed
        case report(VerificationReport)
    }

    static func open(_ response: String, request: AnnexCRequest) throws -> [UInt8] {
        let bytes = try #require(Base64URL.decode(response))
        let item = try CBORDecoder.decode(bytes)
        let parts = try #require(item.array)
        guard parts.count == 2, parts[0].text == "dcapi", let enc = parts[1]["enc"]?.bytes, let cipherText = parts[1]["cipherText"]?.bytes else {
            throw SimulationError.invalidOption("not [\"dcapi\", {enc, cipherText}]")
        }
        return try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: request.recipientKey, encapsulatedKey: Array(enc),
                             ciphertext: Array(cipherText), info: request.transcript.bytes, aad: [UInt8]())
    }

    static func verify(_ response: SimulatedResponse, request: AnnexCRequest, pki: TestPKI) throws -> Outcome {
        let annexC = try #require(response.annexCResponse)
        guard let plaintext = try? open(annexC, request: request) else { return .openFailed }
        let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore))
        return .report(verifier.verify(deviceResponse: plaintext, transcript: request.transcript, readerKey: response.readerKey,
                                       at: response.time))
    }

    /// nil when the outcome matches; otherwise a message.
    static func mismatch(_ outcome: Outcome, _ expected: ExpectedOutcome) -> String? {
        switch outcome {
        case .openFailed:
            return expected == .rejected(.hpkeOpenFailed) ? nil : "expected \(expected), but HPKE open failed"
        case .report(let report):
            return expectation(report, expected)
        }
    }
}
