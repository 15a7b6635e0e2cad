import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc

/// What the server knows about one Apple in-app request, out of band (never read from the response).
public struct AppleAppSession: Sendable {
    public var nonce: [UInt8]
    public var merchantID: String
    public var teamID: String
    /// What was asked for; nil skips the request-policy check.
    public var request: RequestPolicy?

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
    public let configuration: VerifierConfiguration
    public let keys: RecipientKeyRing
    let pipeline: VerificationPipeline

    /// Fails when a key is not P-256, or is Apple's test key while test mode is off.
    public init(configuration: VerifierConfiguration, keys: [PrivateKey]) throws(VerificationError) {
        self.configuration = configuration
        self.keys = try RecipientKeyRing(keys: keys, allowTestKey: configuration.testMode)
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    public func verify(encryptedData: [UInt8], session: AppleAppSession, at time: Date = Date()) -> VerificationReport {
        pipeline.verify(AppleAppAdapter(keys: keys), .init(encryptedData: encryptedData, session: session),
                        request: session.request, at: time)
    }
}
