import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Verifier

/// Apple's in-app "Verify with Wallet" envelope, sealed to the request's merchant key.
struct AppleAppWallet: WalletSide {
    let request: AppleAppRequest

    var format: ResponseFormat { .appleApp }
    var transcript: SessionTranscript { request.transcript }
    var otherTranscript: SessionTranscript {
        AppleEnvelopeBuilder.transcript(nonce: request.nonce.map { $0 ^ 0xFF }, merchantID: request.merchantID,
                                        teamID: request.teamID, merchantKey: request.merchantKey)
    }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        var envelope = AppleEnvelopeBuilder()
        if faults.contains(.unsupportedEnvelopeAlgorithm) { envelope.algorithm = "APPLE-HPKE-v2" }
        if faults.contains(.unsupportedEnvelopeMode) { envelope.mode = 1 }
        if faults.contains(.wrongInfoHash) { envelope.infoHash = Digest.hash(.sha256, otherTranscript.bytes) }
        envelope.corruptCiphertext = faults.contains(.corruptedCiphertext)
        envelope.extraEntries = extraEntries
        var bytes = try envelope.seal(deviceResponse: deviceResponse, merchantKey: try recipient(request.merchantKey, faults: faults, pki: pki),
                                      transcript: request.transcript)
        if faults.contains(.truncatedEnvelope) { bytes = Array(bytes.prefix(bytes.count / 2)) }
        return (bytes, nil)
    }
}

extension ResponseTarget {
    /// Apple's in-app "Verify with Wallet" envelope, sealed to the request's merchant key.
    public static func appleApp(_ request: AppleAppRequest) -> ResponseTarget { ResponseTarget(AppleAppWallet(request: request)) }

    /// The Apple request, when this target is Apple in-app.
    public var appleAppRequest: AppleAppRequest? { (wallet as? AppleAppWallet)?.request }
}

extension KitFormat {
    /// Apple in-app: a seeded merchant key and nonce; the envelope's own faults.
    static let appleApp = KitFormat(
        format: .appleApp,
        transportFaults: [.encryptedToOtherKey, .corruptedCiphertext, .wrongInfoHash, .unsupportedEnvelopeAlgorithm,
                          .unsupportedEnvelopeMode, .truncatedEnvelope],
        transportCodes: [.encryptedToOtherKey: .envelopeRecipientMismatch], refusesDeviceMac: true,
        corpus: appleAppCorpus, answerNeedsRelyingPartyKey: true, answering: answerAppleApp
    ) { seed in
        let merchantKey = try seed.pki.seed.key("merchant", curve: .p256)
        let request = AppleAppRequest(merchantKey: merchantKey.publicKey, nonce: seed.pki.seed.bytes("nonce", count: 32),
                                      merchantID: SimulatedCase.merchantID, teamID: SimulatedCase.teamID)
        return SeededRequest(target: .appleApp(request), state: try AppleAppFlow.state(nonce: request.nonce),
                             environment: FlowEnvironment(configuration: seed.configuration, recipientKeys: [merchantKey],
                                                          merchantID: request.merchantID, teamID: request.teamID))
    }

    /// Apple's corpus files: the raw `encryptedData`, the merchant key, and the merchant values in the session.
    static let appleAppCorpus = CorpusShape(
        responseFile: "response.cbor", privateKeyFile: "merchant-private-key.pem",
        privateKey: { (request: SimulatedRequest) -> PrivateKey? in request.environment.recipientKeys.first },
        verifyOptions: { (inputs: CorpusInputs) -> [String] in
            ["--response", inputs.response, "--private-key", inputs.privateKey ?? "", "--session", inputs.session ?? ""]
        },
        sessionValues: { (environment: FlowEnvironment) -> [(String, JSONValue)] in
            [("merchantID", .string(environment.merchantID)), ("teamID", .string(environment.teamID))]
        })

    /// The wallet for a published Apple request: its nonce (base64url or hex), sealed to the relying party's merchant key.
    static func answerAppleApp(_ published: PublishedRequest) throws -> ResponseTarget {
        guard let merchantKey = published.merchantKey else {
            throw SimulationError.invalidOption("an apple-app answer is sealed to the relying party's merchant key, which was not given")
        }
        let text = try published.text("nonce")
        guard let nonce = Base64URL.decode(text) ?? (text.count % 2 == 0 ? Hex.decode(text) : nil) else {
            throw SimulationError.invalidOption("the request's nonce is not base64url or hex")
        }
        return .appleApp(AppleAppRequest(merchantKey: merchantKey, nonce: nonce, merchantID: published.merchantID, teamID: published.teamID))
    }
}
