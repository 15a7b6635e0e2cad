import CBOR
import Foundation
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
        transportCodes: [.encryptedToOtherKey: .jweDecryptionFailed, .corruptedCiphertext: .jweDecryptionFailed], refusesDeviceMac: false,
        corpus: openID4VPCorpus, answering: answerOpenID4VP
    ) { seed in
        let request = try OpenID4VPRequest(seed: seed.seed, responseMode: seed.responseMode)
        return SeededRequest(target: .openID4VP(request), state: try OpenID4VPFlow.state(request.session),
                             environment: FlowEnvironment(configuration: seed.configuration))
    }

    /// OpenID4VP's corpus files; its DCQL query binds the docType, and the draft 24 handover is an attack of its own.
    static let openID4VPCorpus = CorpusShape(
        responseFile: "response.json", privateKeyFile: "encryption-private-key.pem",
        privateKey: { (request: SimulatedRequest) -> PrivateKey? in request.target.openID4VPRequest?.encryptionKey },
        verifyOptions: CorpusShape.sessionOptions, requestDocTypeCode: ErrorCode.vpTokenDocTypeMismatch, otherTranscriptName: "Annex C's",
        extraAttacks: addDraft24Attack)

    static func addDraft24Attack(to list: inout ConformanceCatalog.CaseList) {
        list.add(ConformanceCase.Kind.attack, "transcript-draft-24", clause: "OpenID4VP 1.0 B.2.6.2 (DC API handover)",
                 summary: "the device signs over the draft 24 handover (origin, client_id, nonce) where 1.0 binds origin, nonce and JWK thumbprint",
                 expected: ExpectedOutcome.rejected(ErrorCode.deviceSignatureInvalid), recipe: Recipe(transcript: .openID4VPDraft24))
    }

    /// The wallet for a published OpenID4VP request: its DC API protocol and data, for the page's origin.
    static func answerOpenID4VP(_ published: PublishedRequest) throws -> ResponseTarget {
        let protocolIdentifier = try published.text("protocol")
        let data = try published.value("data")
        guard data.isObject else { throw SimulationError.invalidOption("the request's data is not a JSON object") }
        return .openID4VP(try OpenID4VPRequest(protocolIdentifier: protocolIdentifier, data: data.serialized(),
                                               origin: published.origin))
    }
}

extension SimulatedResponse {
    /// The OpenID4VP DC API result `{"protocol", "data"}` as JSON text (OpenID4VP only).
    public var openID4VPResponse: String? { format == .openID4VP ? textAnswer : nil }
}
