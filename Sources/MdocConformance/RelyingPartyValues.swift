import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Verifier

/// What a relying party configured that its published requests do not carry, and that the kit's wallet needs to
/// answer them: the origin of its pages, and Apple's merchant key, merchant ID and team ID.
public struct RelyingPartyValues: Sendable {
    /// The origin of the requesting page (the web formats bind it).
    public var origin: String
    /// The relying party's Apple merchant key (the public half): Apple answers are sealed to it; without it the Apple
    /// cases are not applicable.
    public var merchantKey: PublicKey?
    /// The Apple merchant ID bound into the transcript.
    public var merchantID: String
    /// The Apple team ID bound into the transcript.
    public var teamID: String

    /// The values; by default the kit's own merchant and team IDs and `https://shop.example`.
    public init(origin: String = "https://shop.example", merchantKey: PublicKey? = nil, merchantID: String = SimulatedCase.merchantID,
                teamID: String = SimulatedCase.teamID) {
        self.origin = origin
        self.merchantKey = merchantKey
        self.merchantID = merchantID
        self.teamID = teamID
    }

    /// Why the kit cannot answer `format`'s requests with these values, or nil; `fetches`: whether the target fetches
    /// a request object by reference as a wallet does.
    func missing(for format: ResponseFormat, option: String, fetches: Bool, in kits: KitRegistry = .standard) -> String? {
        guard let kit = kits.kit(format), kit.answering != nil else {
            return "the kit's wallet does not answer a published \(format.rawValue) request"
        }
        if kits.formats.descriptor(format)?.wire.byReference == true, !fetches {
            return "this target does not fetch a \(format.rawValue) request object by reference as a wallet does"
        }
        guard kit.answerNeedsRelyingPartyKey, merchantKey == nil else { return nil }
        return "\(format.rawValue) cases need \(option) (the relying party's merchant key)"
    }

    /// The kit's wallet for a request the relying party published, reading its values through `value` (by the kit's
    /// names: `nonce`, `encryptionInfo`, `protocol`, `data`, `authorizationRequest`) and fetching a request object by
    /// reference through `fetch`.
    func walletTarget(_ format: ResponseFormat, origin: String? = nil, in kits: KitRegistry = .standard,
                      value: @escaping (String) throws -> JSONValue, fetch: PublishedRequest.Fetch? = nil) throws -> ResponseTarget {
        guard let answering = kits.kit(format)?.answering else {
            throw TargetFailure(description: "no request flow for \(format.rawValue)")
        }
        let published = PublishedRequest(value: value, fetch: fetch, origin: origin ?? self.origin, merchantKey: merchantKey,
                                         merchantID: merchantID, teamID: teamID)
        do {
            return try answering(published)
        } catch let failure as TargetFailure {
            throw failure
        } catch {
            throw TargetFailure(description: "the kit cannot answer the \(format.rawValue) request: \(error)")
        }
    }
}

extension RelyingPartyValues {
    /// Where a verifier's create answer (as verify-server and the flows publish it) holds the values the kit's wallets
    /// read, by the kit's names.
    static let publishedPaths: [String: [String]] = [
        "nonce": ["nonce"], "encryptionInfo": ["data", "encryptionInfo"], "protocol": ["protocol"], "data": ["data"],
    ]

    /// The kit's wallet for a request published as `fields` (verify-server's create answer, or a flow's public
    /// fields), fetching a request object by reference through `fetch`.
    func walletTarget(_ format: ResponseFormat, fields: JSONValue, in kits: KitRegistry, fetch: @escaping PublishedRequest.Fetch) throws
        -> ResponseTarget {
        try walletTarget(format, in: kits, value: { name in
            var found: JSONValue? = fields
            for key in Self.publishedPaths[name] ?? [name] { found = found?[key] }
            guard let found else { throw TargetFailure(description: "the \(format.rawValue) request has no \(name)") }
            return found
        }, fetch: fetch)
    }
}

/// A case the target could not run to a verdict; its description becomes the case's error.
struct TargetFailure: Error, CustomStringConvertible {
    let description: String
}
