import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
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

/// Opens an Annex C response by hand (base64url → `["dcapi", {enc, cipherText}]` → HPKE open with the request's
/// key and transcript), to look at the bytes inside.
enum AnnexCHarness {
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
}
