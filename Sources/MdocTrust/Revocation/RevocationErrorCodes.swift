import MdocModel
// Codes raised when a document's revocation status is checked (ISO/IEC 18013-5 Annex B CRLs, §9.1.2.6 MSO status).
extension ErrorCode {
    /// A CRL signed by its issuer lists the document signer (or a CA between it and the anchor) as revoked at the
    /// verification time.
    public static let issuerCertificateRevoked = ErrorCode("issuer.certificate_revoked")
    /// The MSO's status list or identifier list marks the document revoked (status 1, INVALID).
    public static let statusRevoked = ErrorCode("status.revoked")
    /// The MSO's status list or identifier list marks the document suspended (status 2).
    public static let statusSuspended = ErrorCode("status.suspended")
    /// The status list or identifier list token is signed by a certificate that chains neither to the anchor of the
    /// document's own signer nor to the certificate the MSO's `status` names: another issuer's list cannot decide
    /// this document's status. Raised under the `soft` and `hard` policies alike.
    public static let statusSignerUntrusted = ErrorCode("status.signer_untrusted")
    /// The MSO's `status` reference cannot be followed: not of the §9.1.2.6 shape, or an index outside its list.
    public static let statusInvalid = ErrorCode("status.invalid")
    /// Under the `hard` revocation policy: no current, trusted answer (no CRL or list, unreachable, stale, expired,
    /// issued in the future, wrong `typ`, `sub` mismatch, an application-specific status value, no `status` in the
    /// MSO). The detail says which.
    public static let revocationUnknown = ErrorCode("revocation.unknown")

    /// Every code raised by revocation checking: `issuerCertificateRevoked`, `statusRevoked`, `statusSuspended`,
    /// `statusSignerUntrusted`, `statusInvalid` and `revocationUnknown`.
    public static let revocationCodes: [ErrorCode] = [
        .issuerCertificateRevoked, .statusRevoked, .statusSuspended, .statusSignerUntrusted, .statusInvalid, .revocationUnknown,
    ]
}
