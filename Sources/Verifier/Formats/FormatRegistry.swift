import Mdoc

/// The one list of formats. A new format is its folder (adapter, `verify` method, flow, descriptor) and one line here;
/// the server offers and verifies it, and the compliance kit runs its fault table through it, without further changes.
public enum FormatRegistry {
    /// Every format's descriptor, in the order formats are listed everywhere.
    public static let descriptors: [FormatDescriptor] = [
        .appleApp,
        .annexC,
        .deviceResponse,
        .openID4VP,
    ]

    /// Every flow for `environment`, in registry order, sharing one `ResponseVerifier` (one pipeline, one certificate
    /// cache). Throws when a format's configuration is unusable (e.g. a decryption key that is not P-256, or Apple's
    /// test key outside test mode).
    public static func flows(_ environment: FlowEnvironment) throws(VerificationError) -> [any RequestFlow] {
        let verifier = try ResponseVerifier(configuration: environment.configuration, keys: environment.recipientKeys)
        return descriptors.compactMap { $0.flow?(environment, verifier) }
    }
}
