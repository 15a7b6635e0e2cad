// Codes raised when a document's revocation status is checked (ISO/IEC 18013-5 Annex B CRLs, §9.1.2.6 MSO status).
extension ErrorCode {
    /// A CRL signed by its issuer lists the document signer (or a CA between it and the anchor) as revoked at the
    /// verification time.
    public static let issuerCertificateRevoked = ErrorCode("issuer.certificate_revoked")
    /// The MSO's status list or identifier list marks the document revoked (status 1, INVALID).
    public static let statusRevoked = ErrorCode("status.revoked")
    /// The MSO's status list or identifier list marks the document suspended (status 2).
    public static let statusSuspended = ErrorCode("status.suspended")
    /// The MSO's `status` reference cannot be followed: not of the §9.1.2.6 shape, or an index outside its list.
    public static let statusInvalid = ErrorCode("status.invalid")
    /// Under the `hard` revocation policy: no current, trusted answer (no CRL or list, unreachable, stale, expired,
    /// untrusted signer, no `status` in the MSO). The detail says which.
    public static let revocationUnknown = ErrorCode("revocation.unknown")

    /// Every code raised by revocation checking: `issuerCertificateRevoked`, `statusRevoked`, `statusSuspended`,
    /// `statusInvalid` and `revocationUnknown`.
    public static let revocationCodes: [ErrorCode] = [
        .issuerCertificateRevoked, .statusRevoked, .statusSuspended, .statusInvalid, .revocationUnknown,
    ]
}
