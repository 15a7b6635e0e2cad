import Foundation
import MdocTrust

/// Policy knobs for the mdoc checks.
public struct MdocVerificationOptions: Sendable {
    /// How strictly the ISO/IEC 18013-5 Annex B certificate profile is enforced.
    public var profile: CertificateProfile
    /// Tolerance applied to MSO validity (validFrom / validUntil) comparisons.
    public var clockSkew: TimeInterval
    /// Whether `deviceMac` is accepted (it needs the reader's ephemeral private key). Apple's in-app flow uses
    /// signatures only.
    public var allowDeviceMac: Bool
    /// What an undetermined revocation status does (`soft`: a warning; `hard`: `revocation.unknown`).
    public var revocation: RevocationPolicy
    /// Where CRLs and status tokens come from; nil means none were given (every status is then unknown).
    public var revocationSource: (any RevocationSource)?

    /// Creates options.
    ///
    /// The defaults: the default certificate profile, 60 seconds of clock skew, `deviceMac` accepted, a soft
    /// revocation policy, and no revocation source.
    public init(profile: CertificateProfile = .default, clockSkew: TimeInterval = 60, allowDeviceMac: Bool = true,
                revocation: RevocationPolicy = .soft, revocationSource: (any RevocationSource)? = nil) {
        self.profile = profile
        self.clockSkew = clockSkew
        self.allowDeviceMac = allowDeviceMac
        self.revocation = revocation
        self.revocationSource = revocationSource
    }
}
