import MdocModel

/// The one list of formats. A new format is its folder (adapter, `verify` method, flow, descriptor) and one line here;
/// the server offers and verifies it, and the compliance kit runs its fault table through it, without further changes.
public enum FormatRegistry {
    /// Every format's descriptor, in the order formats are listed everywhere.
    public static let descriptors: [FormatDescriptor] = [
        .appleApp,
        .annexC,
        .deviceResponse,
        .openID4VP,
        .openID4VPRedirect,
    ]

    /// Every flow for `environment`, in registry order, sharing one `ResponseVerifier` (one pipeline, one certificate
    /// cache). Throws when a format's configuration is unusable (e.g. a decryption key that is not P-256, or Apple's
    /// test key outside test mode).
    public static func flows(_ environment: FlowEnvironment) throws(VerificationError) -> [any RequestFlow] {
        try flows(environment, inspection: nil)
    }

    /// Every flow for `environment`, whose verifier hands each DeviceResponse it opens to `inspection` (the inspectors).
    package static func flows(_ environment: FlowEnvironment, inspection: PipelineInspection?) throws(VerificationError) -> [any RequestFlow] {
        var verifier = try ResponseVerifier(configuration: environment.configuration, keys: environment.recipientKeys)
        if let inspection { verifier = verifier.inspecting(inspection) }
        return descriptors.compactMap { $0.flow?(environment, verifier) ?? nil }
    }
}
