import CBOR
import Foundation
import MdocModel
import MdocTesting
import TestSupport
import Verifier

/// The formats' front doors, each through the same flow `verify-server` uses, with fixed keys, nonce and trust
/// store. Whatever the input, the report must be well formed (`Invariant.wellFormed`).
extension FuzzTargets {
    static let appleExchange = fixture { try Exchange(.appleApp) }
    static let annexCExchange = fixture { try Exchange(.annexC) }
    static let openID4VPExchange = fixture { try Exchange(.openID4VP) }
    static let openID4VPPlainExchange = fixture { try Exchange(.openID4VP, responseMode: .dcAPI) }
    static let deviceResponseExchange = fixture { try Exchange(.deviceResponse) }

    /// 2. Apple's `encryptedData` as received: envelope CBOR, recipient hash, transcript hash, HPKE open.
    static let appleEnvelope = FuzzTarget("apple-envelope", maxLength: 16 << 10,
                                          "APPLE-HPKE-v1 envelope through HPKE open with a fixed merchant key (AppleAppFlow)",
                                          seeds: { [AppleSampleVector.envelope, appleExchange.response.bytes] }) { input in
        Invariant.wellFormed(appleExchange.verify(posted: Data(input).base64EncodedString()))
    }

    /// 2b. The decrypted plaintext (`{"identity": DeviceResponse}`): each input is sealed to the merchant key under
    /// the exchange's transcript, so mutations reach the plaintext parser and the mdoc checks behind HPKE.
    static let applePlaintext = FuzzTarget("apple-plaintext", maxLength: 16 << 10,
                                           "a plaintext sealed per input, through the Apple flow to the ISO 18013-5 checks",
                                           seeds: applePlaintextSeeds) { input in
        let exchange = appleExchange
        guard let request = exchange.request.target.appleAppRequest,
              let envelope = try? AppleEnvelopeBuilder().seal(plaintext: input, merchantKey: request.merchantKey,
                                                              transcript: request.transcript)
        else { return Invariant.require(false, "the kit could not seal a plaintext") }
        Invariant.wellFormed(exchange.verify(posted: Data(envelope).base64EncodedString()))
    }

    static func applePlaintextSeeds() throws -> [[UInt8]] {
        let kit = appleExchange.response.deviceResponse
        return [AppleSampleVector.plaintext, CBOREncoder.encode(.map([(.text("identity"), .encoded(kit))]))]
    }

    /// 3. A bare DeviceResponse → documents → MSO → every ISO 18013-5 check, fixed transcript and trust store.
    static let deviceResponse = FuzzTarget("device-response", maxLength: 16 << 10,
                                           "DeviceResponse through DeviceResponseVerifier (MSO, digests, chain, device auth, policy)",
                                           seeds: { [deviceResponseExchange.response.bytes, AnnexDVector.deviceResponse,
                                                     appleExchange.response.deviceResponse] }) { input in
        Invariant.wellFormed(deviceResponseExchange.verify(deviceResponse: input))
    }

    /// 4. Annex C: the posted `{"response": …}` text, and the same bytes as an `encryptionInfo`.
    static let annexC = FuzzTarget("annex-c", maxLength: 16 << 10,
                                   "Annex C {\"response\": …} through AnnexCFlow; encryptionInfo parsing",
                                   seeds: annexCSeeds) { input in
        let text = String(decoding: input, as: UTF8.self)
        Invariant.wellFormed(annexCExchange.verify(posted: text))
        do {
            _ = try AnnexCEncryptionInfo(base64URL: text)
        } catch {
            Invariant.catalogued(error)
        }
    }

    static func annexCSeeds() throws -> [[UInt8]] {
        let exchange = annexCExchange
        var seeds = [Array((exchange.response.annexCResponse ?? "").utf8)]
        if let request = exchange.request.target.annexCRequest { seeds.append(Array(request.encryptionInfo.utf8)) }
        return seeds
    }

    /// OpenID4VP over the DC API: the posted result JSON, as a compact JWE (`dc_api.jwt`) and in the clear (`dc_api`,
    /// which reaches the `vp_token` parser without decryption). The first input byte picks the mode.
    static let openID4VP = FuzzTarget("openid4vp", maxLength: 32 << 10,
                                      "OpenID4VP DC API result: JWE (dc_api.jwt) and plain vp_token (dc_api) through OpenID4VPFlow",
                                      seeds: openID4VPSeeds) { input in
        guard let mode = input.first else { return }
        let text = String(decoding: input.dropFirst(), as: UTF8.self)
        let exchange = mode & 1 == 0 ? openID4VPExchange : openID4VPPlainExchange
        Invariant.wellFormed(exchange.verify(posted: text))
    }

    static func openID4VPSeeds() throws -> [[UInt8]] {
        [[0] + Array((openID4VPExchange.response.openID4VPResponse ?? "").utf8),
         [1] + Array((openID4VPPlainExchange.response.openID4VPResponse ?? "").utf8)]
    }
}

/// Builds a fixture (static lets are built on first use, once, thread-safely: a target that is not run builds
/// none). A fixture that cannot be built is a broken harness, not a finding: it traps with the reason.
func fixture<Value>(_ make: () throws -> Value) -> Value {
    do {
        return try make()
    } catch {
        fatalError("fuzz fixture could not be built: \(error)")
    }
}
