import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc

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

/// Verifies Apple "Verify with Wallet" in-app responses (`PKIdentityDocument.encryptedData`) through the shared
/// pipeline with `AppleAppAdapter` (docs/formats.md §1).
public final class AppleAppVerifier: Sendable {
    /// The configuration this verifier was created with.
    public let configuration: VerifierConfiguration
    /// The decryption keys, matched to responses by pkRHash.
    public let keys: RecipientKeyRing
    let pipeline: VerificationPipeline

    /// Creates a verifier with the merchant's decryption keys.
    ///
    /// Throws `envelope.unsupported` when a key is not P-256, `envelope.test_key` when one is Apple's test key while
    /// test mode is off.
    public init(configuration: VerifierConfiguration, keys: [PrivateKey]) throws(VerificationError) {
        self.configuration = configuration
        self.keys = try RecipientKeyRing(keys: keys, allowTestKey: configuration.testMode)
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    /// Verifies `encryptedData` (`PKIdentityDocument.encryptedData`) against `session`, as of `time`, and returns the
    /// report.
    public func verify(encryptedData: [UInt8], session: AppleAppSession, at time: Date = Date()) -> VerificationReport {
        pipeline.verify(AppleAppAdapter(keys: keys), .init(encryptedData: encryptedData, session: session),
                        request: session.request, at: time)
    }
}
