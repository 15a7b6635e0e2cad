import Mdoc

/// The one list of formats with a request flow. A new format adds its flow here; the server offers and verifies
/// it, and the compliance kit's `SimulatedCase` runs its fault table through it, without further changes.
public enum FormatRegistry {
    /// Every flow for `environment`, in the order the server lists formats. Throws when a format's configuration
    /// is unusable (e.g. a decryption key that is not P-256, or Apple's test key outside test mode).
    public static func flows(_ environment: FlowEnvironment) throws(VerificationError) -> [any RequestFlow] {
        [
            try AppleAppFlow(environment),
            AnnexCFlow(environment),
            OpenID4VPFlow(environment),
        ]
    }
}
