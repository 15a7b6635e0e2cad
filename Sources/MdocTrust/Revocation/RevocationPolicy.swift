/// What the verifier does when a document's revocation status cannot be determined. A *known* revoked or suspended
/// status always rejects.
public enum RevocationPolicy: String, Sendable, Codable, CaseIterable {
    /// No revocation checking; the report says so.
    case off
    /// Verify, with a warning check that says exactly why the status is unknown (no CRL, unreachable, stale, no
    /// `status` in the MSO). The default.
    case soft
    /// Reject with `revocation.unknown` when the status is unknown.
    case hard
}
