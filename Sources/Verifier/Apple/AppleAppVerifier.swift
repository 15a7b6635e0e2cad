import CBOR
import CryptoCore
import Foundation
import HPKE
import MdocModel
import MdocTrust

/// What the server knows about one Apple in-app request, out of band (never read from the response).
public struct AppleAppSession: Sendable {
    /// The nonce handed to the app for this request.
    public var nonce: [UInt8]
    /// The merchant identifier, bound into the session transcript.
    public var merchantID: String
    /// The team identifier, bound into the session transcript.
    public var teamID: String
    /// What was asked for; nil skips the request-policy check.
    public var request: RequestPolicy?

    /// Creates a session; a nil `request` skips the request-policy check.
    public init(nonce: [UInt8], merchantID: String, teamID: String, request: RequestPolicy? = nil) {
        self.nonce = nonce
        self.merchantID = merchantID
        self.teamID = teamID
        self.request = request
    }
}

/// Verifies Apple "Verify with Wallet" in-app responses (`PKIdentityDocument.encryptedData`): the `ResponseVerifier`,
/// named for this format; create it with the merchant's keys (`init(configuration:keys:)`).
public typealias AppleAppVerifier = ResponseVerifier

extension ResponseVerifier {
    /// Verifies `encryptedData` (`PKIdentityDocument.encryptedData`) against `session`, as of `time`, through
    /// `AppleAppAdapter` with this verifier's `keys` (docs/formats.md §1). The revocation lists the configured source
    /// would have to fetch are noted in `lookups`.
    public func verify(encryptedData: [UInt8], session: AppleAppSession, at time: Date = Date(),
                       noting lookups: RevocationLookups? = nil) -> VerificationReport {
        verify(AppleAppAdapter(keys: keys), .init(encryptedData: encryptedData, session: session), request: session.request, at: time,
               noting: lookups)
    }
}
