import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Verifier

/// OpenID4VP over the DC API, answered to the request's key (`dc_api.jwt`) or in plain (`dc_api`).
struct OpenID4VPWallet: WalletSide {
    let request: OpenID4VPRequest

    var format: ResponseFormat { .openID4VP }
    var transcript: SessionTranscript { request.transcript }
    var otherTranscript: SessionTranscript {
        .openID4VPDCAPI(origin: "https://another-origin.example", nonce: request.nonce, jwkThumbprint: request.jwk?.thumbprint)
    }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        var recipient = try request.jwk?.publicKey()
        if faults.contains(.encryptedToOtherKey) { recipient = try pki.seed.key("other-recipient", curve: .p256).publicKey }
        let text = try OpenID4VPResponseBuilder.answer(deviceResponse: deviceResponse, request: request, recipient: recipient,
                                                       corruptCiphertext: faults.contains(.corruptedCiphertext))
        return (Array(text.utf8), text)
    }
}

extension ResponseTarget {
    /// OpenID4VP over the DC API, answered to the request's key (`dc_api.jwt`) or in plain (`dc_api`).
    public static func openID4VP(_ request: OpenID4VPRequest) -> ResponseTarget { ResponseTarget(OpenID4VPWallet(request: request)) }

    /// The OpenID4VP request, when this target is OpenID4VP.
    public var openID4VPRequest: OpenID4VPRequest? { (wallet as? OpenID4VPWallet)?.request }
}

extension KitFormat {
    /// OpenID4VP: a seeded request in the case's response mode; JWE faults end in `jwe.decryption_failed`.
    static let openID4VP = KitFormat(
        format: .openID4VP, transportFaults: [.encryptedToOtherKey, .corruptedCiphertext],
        transportCodes: [.encryptedToOtherKey: .jweDecryptionFailed, .corruptedCiphertext: .jweDecryptionFailed], refusesDeviceMac: false
    ) { seed in
        let request = try OpenID4VPRequest(seed: seed.seed, responseMode: seed.responseMode)
        return SeededRequest(target: .openID4VP(request), state: OpenID4VPFlow.state(request.session),
                             environment: FlowEnvironment(configuration: seed.configuration))
    }
}
