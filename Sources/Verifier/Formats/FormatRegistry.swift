import MdocModel

/// The formats a verifier, server or kit serves: a value, so that a test can register a format of its own and hand the
/// set to the server (`VerifierRuntime.load(_:formats:…)`) without touching the built-in list. A new built-in format
/// is its folder (adapter, `verify` method, flow, descriptor) and one line in `standard`.
public struct FormatRegistry: Sendable {
    /// Every format's descriptor, in the order formats are listed everywhere.
    public let descriptors: [FormatDescriptor]

    /// The formats this library implements.
    public static let standard = FormatRegistry(descriptors: [
        .appleApp,
        .annexC,
        .deviceResponse,
        .openID4VP,
        .openID4VPRedirect,
    ])

    /// A registry of `descriptors`, in that order; a format named twice keeps its first descriptor.
    public init(descriptors: [FormatDescriptor]) {
        var seen = Set<VerificationReport.Format>()
        self.descriptors = descriptors.filter { seen.insert($0.format).inserted }
    }

    /// This registry with `descriptor` added after the others (replacing none).
    public func adding(_ descriptor: FormatDescriptor) -> FormatRegistry {
        FormatRegistry(descriptors: descriptors + [descriptor])
    }

    /// Every format, in registry order.
    public var formats: [VerificationReport.Format] { descriptors.map(\.format) }

    /// The descriptor of `format`; nil for a format this registry does not hold.
    public func descriptor(_ format: VerificationReport.Format) -> FormatDescriptor? {
        descriptors.first { $0.format == format }
    }

    /// The format named `name` in this registry; nil for any other name.
    public func format(named name: String) -> VerificationReport.Format? {
        descriptors.first { $0.format.rawValue == name }?.format
    }

    /// Every flow for `environment`, in registry order, sharing one `ResponseVerifier` (one pipeline, one certificate
    /// cache). Throws when a format's configuration is unusable (e.g. a decryption key that is not P-256, or Apple's
    /// test key outside test mode).
    public func flows(_ environment: FlowEnvironment) throws(VerificationError) -> [any RequestFlow] {
        try flows(environment, inspection: nil)
    }

    /// Every flow for `environment`, whose verifier hands each DeviceResponse it opens to `inspection` (the inspectors).
    package func flows(_ environment: FlowEnvironment, inspection: PipelineInspection?) throws(VerificationError) -> [any RequestFlow] {
        var verifier = try ResponseVerifier(configuration: environment.configuration, keys: environment.recipientKeys)
            .recognisingMockData(of: self)
        if let inspection { verifier = verifier.inspecting(inspection) }
        return descriptors.compactMap { $0.flow?(environment, verifier) ?? nil }
    }

    /// The built-in descriptors (`standard.descriptors`).
    public static var descriptors: [FormatDescriptor] { standard.descriptors }

    /// The built-in formats' flows for `environment` (`standard.flows(_:)`).
    public static func flows(_ environment: FlowEnvironment) throws(VerificationError) -> [any RequestFlow] {
        try standard.flows(environment)
    }

    package static func flows(_ environment: FlowEnvironment, inspection: PipelineInspection?) throws(VerificationError) -> [any RequestFlow] {
        try standard.flows(environment, inspection: inspection)
    }
}
