import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// Apple "Verify with Wallet" in-app as a request flow: a fresh 32-byte nonce per request (the app passes it to
/// `PKIdentityRequest`) and, per requested docType, issuer identifiers for
/// `PKIdentityDocumentDescriptor.issuerIdentifiers` (iOS 27; base64url): the request's allow-list narrowed to the trust
/// store, else the store's, absent when the store cannot be described that way (see `IssuerIdentifiers`). The answer
/// is base64 (or base64url) of `PKIdentityDocument.encryptedData`, verified with the configured merchant and team IDs
/// (docs/formats.md §1).
public struct AppleAppFlow: RequestFlow {
    /// The kept state: the nonce, base64url.
    struct Kept: Codable {
        let nonce: String
    }

    static let nonceLength = 32

    /// The verifier that checks the answers.
    public let verifier: AppleAppVerifier
    let merchantID: String
    let teamID: String

    /// The Apple in-app format, `apple-app`.
    public var format: VerificationReport.Format { .appleApp }

    /// Creates the flow on a runtime's shared `verifier`, which holds the decryption keys (see `FormatRegistry.flows`).
    init(_ environment: FlowEnvironment, verifier: ResponseVerifier) {
        self.verifier = verifier
        merchantID = environment.merchantID
        teamID = environment.teamID
    }

    /// Creates an Apple in-app request for `policy`: a fresh nonce and the issuer identifiers per requested docType
    /// (the policy's allow-list narrowed to the trust store, or else every trusted issuer of the docType).
    ///
    /// `origin` is not used. Throws `input.malformed` when the allow-list names an issuer the trust store cannot
    /// anchor, or leaves a requested docType without one (`IssuerIdentifiers.narrowed(_:in:)`).
    public func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest {
        let store = verifier.configuration.trustStore
        let offers = try IssuerIdentifiers.narrowed(policy, in: store)
            ?? IssuerIdentifiers.offer(for: policy.documents.map(\.docType), in: store)
        let nonce = SecureRandom.bytes(Self.nonceLength)
        let identifiers = JSONValue.object(offers.keys.sorted().map { docType in
            (docType, .array((offers[docType] ?? []).map { .string(Base64URL.encode($0)) }))
        })
        return PreparedRequest(state: try Self.state(nonce: nonce),
                               publicFields: [("nonce", .string(Base64URL.encode(nonce))), ("issuerIdentifiers", identifiers)])
    }

    /// The kept state for a request with `nonce`.
    public static func state(nonce: [UInt8]) throws(VerificationError) -> KeptState {
        try KeptState(Kept(nonce: Base64URL.encode(nonce)))
    }

    /// The nonce back from kept `state`.
    ///
    /// - Parameter state: what `state(nonce:)` kept.
    /// - Throws: `input.malformed` when the state has no nonce, or one that is not base64url.
    public static func nonce(_ state: KeptState) throws(VerificationError) -> [UInt8] {
        let text = try state.decode(Kept.self, format: .appleApp).nonce
        guard let nonce = Base64URL.decode(text), !nonce.isEmpty else {
            throw VerificationError(.inputMalformed, "the kept apple-app state's nonce is not base64url")
        }
        return nonce
    }

    /// Verifies base64 (or base64url) of `PKIdentityDocument.encryptedData` against the nonce in `state`, as of `time`.
    ///
    /// A kept state without a nonce or an undecodable response gives a rejected report; a nil `policy` skips the
    /// request-policy check.
    public func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                       noting lookups: RevocationLookups?) -> VerificationReport {
        let nonce: [UInt8]
        do {
            nonce = try Self.nonce(state)
        } catch {
            return verifier.rejected(format, error)
        }
        guard !response.isEmpty, let encryptedData = Base64URL.decode(response) else {
            return verifier.rejected(format, VerificationError(.inputMalformed, "response is not base64 of PKIdentityDocument.encryptedData"))
        }
        let session = AppleAppSession(nonce: nonce, merchantID: merchantID, teamID: teamID, request: policy)
        return verifier.verify(encryptedData: encryptedData, session: session, at: time, noting: lookups)
    }
}

extension AppleAppFlow.Kept {
    init(from decoder: any Decoder) throws {
        nonce = try decoder.container(keyedBy: CodingKeys.self).nonEmpty(.nonce)
    }
}
