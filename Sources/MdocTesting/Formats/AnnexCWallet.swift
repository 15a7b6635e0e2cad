import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Verifier

/// ISO/IEC 18013-7 Annex C, sealed to the recipient key the request's `encryptionInfo` carries, for the page origin.
struct AnnexCWallet: WalletSide {
    /// The relying party's request, when the kit made it (its transcript is the request's own).
    let request: AnnexCRequest?
    /// The request's exact `encryptionInfo` text.
    let encryptionInfo: String
    let origin: String

    var format: ResponseFormat { .annexC }
    var transcript: SessionTranscript { request?.transcript ?? .annexC(encryptionInfo: encryptionInfo, origin: origin) }
    var otherTranscript: SessionTranscript { .annexC(encryptionInfo: encryptionInfo, origin: "https://another-origin.example") }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        let recipientKey: PublicKey
        if let request {
            recipientKey = request.recipientKey.publicKey
        } else {
            do {
                recipientKey = try AnnexCEncryptionInfo(base64URL: encryptionInfo).recipientPublicKey
            } catch {
                throw SimulationError.invalidOption("encryptionInfo: \(error.message)")
            }
        }
        let response = try AnnexCResponseBuilder.seal(deviceResponse: deviceResponse,
                                                      recipientKey: try recipient(recipientKey, faults: faults, pki: pki),
                                                      transcript: transcript, corruptCiphertext: faults.contains(.corruptedCiphertext))
        return (Array(response.utf8), response)
    }
}

extension ResponseTarget {
    /// ISO/IEC 18013-7 Annex C, sealed to the request's recipient key.
    public static func annexC(_ request: AnnexCRequest) -> ResponseTarget {
        ResponseTarget(AnnexCWallet(request: request, encryptionInfo: request.encryptionInfo, origin: request.origin))
    }

    /// Annex C as a wallet sees it: the request's exact `encryptionInfo` text (which carries the recipient key) and the
    /// page origin.
    public static func annexCEncryptionInfo(_ encryptionInfo: String, origin: String) -> ResponseTarget {
        ResponseTarget(AnnexCWallet(request: nil, encryptionInfo: encryptionInfo, origin: origin))
    }

    /// The Annex C request, when this target was made from one (`annexC(_:)`).
    public var annexCRequest: AnnexCRequest? { (wallet as? AnnexCWallet)?.request }
}

extension KitFormat {
    /// Annex C: a seeded recipient key and origin; HPKE faults end in `hpke.open_failed`.
    static let annexC = KitFormat(
        format: .annexC, transportFaults: [.encryptedToOtherKey, .corruptedCiphertext], transportCodes: [:], refusesDeviceMac: true,
        corpus: CorpusShape(responseFile: "response.txt", privateKeyFile: "recipient-private-key.pem",
                            privateKey: { $0.target.annexCRequest?.recipientKey }, verifyOptions: CorpusShape.sessionOptions,
                            otherTranscriptName: "OpenID4VP's"),
        answering: { published in .annexCEncryptionInfo(try published.text("encryptionInfo"), origin: published.origin) }
    ) { seed in
        let request = try AnnexCRequest(seed: seed.seed)
        return SeededRequest(target: .annexC(request),
                             state: try AnnexCFlow.state(privateKey: request.recipientKey, encryptionInfo: request.encryptionInfo,
                                                     origin: request.origin),
                             environment: FlowEnvironment(configuration: seed.configuration))
    }
}

extension SimulatedResponse {
    /// The Annex C `DigitalCredential.data.response` string (Annex C only).
    public var annexCResponse: String? { format == .annexC ? textAnswer : nil }
}
