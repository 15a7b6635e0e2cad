import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// ISO/IEC TS 18013-7 Annex C over the Digital Credentials API as a request flow: a fresh recipient key, nonce and
/// EncryptionInfo per request (signed with the reader identity when configured). The kept state is the private key
/// PEM, the exact encryptionInfo text and the origin; the answer is the DigitalCredential `data` (docs/formats.md §2).
public struct AnnexCFlow: RequestFlow {
    /// The kept state: the recipient private key (PKCS #8 PEM), the exact encryptionInfo text and the origin.
    struct Kept: Codable {
        let privateKey: String
        let encryptionInfo: String
        let origin: String
    }

    /// The verifier that checks the answers.
    public let verifier: AnnexCVerifier
    let reader: ReaderIdentity?
    let issuerIdentifiersInRequests: Bool

    /// The Annex C format, `annex-c`.
    public var format: VerificationReport.Format { .annexC }

    /// Creates the flow on a runtime's shared `verifier` (see `FormatRegistry.flows`).
    init(_ environment: FlowEnvironment, verifier: ResponseVerifier) {
        self.verifier = verifier
        reader = environment.readerIdentity
        issuerIdentifiersInRequests = environment.issuerIdentifiersInRequests
    }

    /// Creates an Annex C request for `policy` from the page at `origin`: the kept state and the `data` field for the
    /// page.
    ///
    /// Each ItemsRequest's `requestInfo.issuerIdentifiers` is the policy's allow-list narrowed to the trust store;
    /// without one, the store's identifiers when the environment asks for them.
    ///
    /// Throws `input.malformed` when `origin` is missing or not a serialized web origin, the policy names no element,
    /// the allow-list names an issuer the trust store cannot anchor or leaves a docType without one, or the request
    /// cannot be signed.
    public func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest {
        let origin = try WebOrigin.required(origin, format: format)
        let store = verifier.configuration.trustStore
        let identifiers = try IssuerIdentifiers.narrowed(policy, in: store)
            ?? (issuerIdentifiersInRequests ? IssuerIdentifiers.offer(for: policy.documents.map(\.docType), in: store) : [:])
        let request = try AnnexCWebRequest.create(origin: origin, request: policy, reader: reader, issuerIdentifiers: identifiers)
        return PreparedRequest(state: try Self.state(privateKey: request.session.privateKey, encryptionInfo: request.encryptionInfo, origin: origin),
                               publicFields: [("data", request.data)])
    }

    /// The kept state: the recipient private key, the exact encryptionInfo text and the origin.
    public static func state(privateKey: PrivateKey, encryptionInfo: String, origin: String) throws(VerificationError) -> KeptState {
        try KeptState(Kept(privateKey: privateKey.pkcs8PEM(), encryptionInfo: encryptionInfo, origin: origin))
    }

    /// Verifies the DigitalCredential `data` the page posted against the kept `state`, as of `time`.
    ///
    /// An incomplete `state` gives a rejected report; a nil `policy` skips the request-policy check.
    public func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        do {
            return verifier.verify(response: response, session: try Self.session(state, request: policy), at: time, noting: lookups)
        } catch {
            return verifier.rejected(format, error)
        }
    }

    /// The session back from kept `state`, with `request` as its policy.
    ///
    /// - Parameters:
    ///   - state: what `state(privateKey:encryptionInfo:origin:)` kept.
    ///   - request: the request policy, or nil to skip the request-policy check.
    /// - Throws: `input.malformed` naming what the state lacks (or a private key that is not PEM).
    public static func session(_ state: KeptState, request: RequestPolicy?) throws(VerificationError) -> AnnexCSession {
        let kept = try state.decode(Kept.self, format: .annexC)
        guard let key = try? PrivateKey(pemEncoded: kept.privateKey) else {
            throw VerificationError(.inputMalformed, "the kept annex-c state's privateKey is not a PEM private key")
        }
        return AnnexCSession(privateKey: key, encryptionInfo: kept.encryptionInfo, origin: kept.origin, request: request)
    }
}

extension AnnexCFlow.Kept {
    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        self.init(privateKey: try members.nonEmpty(.privateKey), encryptionInfo: try members.nonEmpty(.encryptionInfo),
                  origin: try members.nonEmpty(.origin))
    }
}
