/// How strictly the Annex B certificate profile is enforced.
public enum CertificateProfile: String, Sendable, Codable, CaseIterable {
    /// Enforces what security rests on (signatures, validity at the verification time, DS not a CA,
    /// DS key usage / EKU not contradicting document signing, IACA is a CA); every other Annex B
    /// deviation is reported as a `warn` check. Real issuers deviate (Apple's sample DS among them).
    case `default`
    /// Every Annex B deviation fails with `issuer.certificate_profile`.
    case strict
}
