import CBOR
import CryptoCore
import Foundation
import MdocTrust

/// Server-side settings shared by every verification format.
public struct VerifierConfiguration: Sendable {
    /// Trusted IACA roots.
    public var trustStore: TrustStore
    /// How strictly the ISO/IEC 18013-5 Annex B certificate profile is enforced.
    public var profile: CertificateProfile
    /// Tolerance for MSO validity comparisons, in seconds.
    public var clockSkew: TimeInterval
    /// Test mode accepts responses encrypted to Apple's published test key (Simulator, Apple's sample) and mock data
    /// from a device with Apple's Wallet developer profile (a warning, `CheckID.issuerMockData`), and marks every
    /// report `assurance: test`. Never enable it in production.
    public var testMode: Bool
    /// Bounds for every CBOR structure read from a response.
    public var cborLimits: CBORLimits
    /// What an undetermined revocation status does (default `soft`: a warning check saying why).
    public var revocation: RevocationPolicy
    /// CRLs and status tokens (files, or a fetching cache); nil: none, so every status is unknown.
    public var revocationSource: (any RevocationSource)?
    /// Parsed certificates, keys and validated paths, shared by every verifier made from this configuration (and its
    /// copies): one cache per runtime, however many formats it serves. Paths are cached per trust store.
    package let certificateCache = CertificateCache()

    /// Creates a configuration; only `trustStore` is required.
    ///
    /// The defaults: the default certificate profile, 60 seconds of clock skew, test mode off, default CBOR limits,
    /// soft revocation and no revocation source.
    public init(trustStore: TrustStore, profile: CertificateProfile = .default, clockSkew: TimeInterval = 60,
                testMode: Bool = false, cborLimits: CBORLimits = .default, revocation: RevocationPolicy = .soft,
                revocationSource: (any RevocationSource)? = nil) {
        self.trustStore = trustStore
        self.profile = profile
        self.clockSkew = clockSkew
        self.testMode = testMode
        self.cborLimits = cborLimits
        self.revocation = revocation
        self.revocationSource = revocationSource
    }
}
