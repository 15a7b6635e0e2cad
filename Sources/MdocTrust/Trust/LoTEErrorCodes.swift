import MdocModel
// Codes raised when an ETSI TS 119 602 List of Trusted Entities (LoTE) is verified or imported.
extension ErrorCode {
    /// Not a compact JWS over a LoTE of the TS 119 602 JSON shape (the detail names what is wrong).
    public static let loteMalformed = ErrorCode("lote.malformed")
    /// Larger than the size ceiling, or more entities or services than the entry ceiling.
    public static let loteTooLarge = ErrorCode("lote.too_large")
    /// The JWS signature does not verify with its `x5c` signer, its `alg` is not an asymmetric algorithm the verifier
    /// takes, or its certificate digest (`x5t#o`, `x5t#S256`) does not match the signer.
    public static let loteSignatureInvalid = ErrorCode("lote.signature_invalid")
    /// The `x5c` signer does not chain to a LoTE signer root the operator pinned.
    public static let loteSignerUntrusted = ErrorCode("lote.signer_untrusted")
    /// The signer (or a certificate between it and the pinned root) is outside its validity at the verification time.
    public static let loteSignerExpired = ErrorCode("lote.signer_expired")
    /// `NextUpdate` has passed (a refusal only under the strict profile; a warning otherwise).
    public static let loteStale = ErrorCode("lote.stale")
    /// `ListIssueDateTime` is after the verification time.
    public static let loteNotYetValid = ErrorCode("lote.not_yet_valid")
    /// A lower `LoTESequenceNumber` than the one already accepted from the same scheme operator and list type.
    public static let loteRollback = ErrorCode("lote.rollback")

    /// Every code raised when a LoTE is verified or imported.
    public static let loteCodes: [ErrorCode] = [.loteMalformed, .loteTooLarge, .loteSignatureInvalid, .loteSignerUntrusted, .loteSignerExpired,
                                                  .loteStale, .loteNotYetValid, .loteRollback]
}
