import MdocModel
// Codes raised when a VICAL (ISO/IEC 18013-5 Annex C) is verified or imported.
extension ErrorCode {
    /// Not a COSE_Sign1 over a VICAL of the Annex C shape (the detail names what is wrong).
    public static let vicalMalformed = ErrorCode("vical.malformed")
    /// The VICAL signature does not verify with its signer certificate, or uses an unsupported algorithm.
    public static let vicalSignatureInvalid = ErrorCode("vical.signature_invalid")
    /// The signer certificate lacks EKU 1.0.18013.5.1.8 or does not chain to a VICAL root the operator pinned.
    public static let vicalSignerUntrusted = ErrorCode("vical.signer_untrusted")
    /// `nextUpdate` has passed (a refusal only under the strict profile; a warning otherwise).
    public static let vicalStale = ErrorCode("vical.stale")
    /// A lower `vicalIssueID` than the one already imported.
    public static let vicalRollback = ErrorCode("vical.rollback")
    /// The VICAL signer (or a certificate between it and the pinned root, or the root) is outside its validity at the
    /// verification time.
    public static let vicalSignerExpired = ErrorCode("vical.signer_expired")

    /// Every code raised when a trust list (a VICAL, a LoTE) is verified or imported.
    public static let trustCodes: [ErrorCode] = [.vicalMalformed, .vicalSignatureInvalid, .vicalSignerUntrusted, .vicalStale, .vicalRollback,
                                                   .vicalSignerExpired] + loteCodes
}
