import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// Verifies wallet responses of every format through the one `VerificationPipeline`: each format adds a `verify`
/// method for its input in its own folder (`verify(response:session:)` for Annex C and OpenID4VP,
/// `verify(encryptedData:session:)` for Apple in-app, `verify(deviceResponse:transcript:)` for a bare DeviceResponse).
///
/// One instance serves every format, so a runtime holds one pipeline and one certificate cache. The format names
/// `AppleAppVerifier`, `AnnexCVerifier`, `OpenID4VPVerifier` and `DeviceResponseVerifier` are this type.
public final class ResponseVerifier: Sendable {
    /// The configuration this verifier was created with.
    public let configuration: VerifierConfiguration
    /// The Apple in-app decryption keys, matched to responses by pkRHash; empty when none were given.
    public let keys: RecipientKeyRing
    let pipeline: VerificationPipeline

    /// Creates a verifier whose trust store, limits and policies come from `configuration`, with no Apple in-app
    /// decryption key.
    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        self.keys = .empty
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    /// Creates a verifier with the Apple in-app decryption keys `keys`.
    ///
    /// Throws `envelope.unsupported` when a key is not P-256, `envelope.test_key` when one is Apple's test key while
    /// test mode is off.
    public init(configuration: VerifierConfiguration, keys: [PrivateKey]) throws(VerificationError) {
        self.configuration = configuration
        self.keys = try RecipientKeyRing(keys: keys, allowTestKey: configuration.testMode)
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    private init(configuration: VerifierConfiguration, keys: RecipientKeyRing, pipeline: VerificationPipeline) {
        self.configuration = configuration
        self.keys = keys
        self.pipeline = pipeline
    }

    /// The same verifier, handing every DeviceResponse it opens to `inspection`, whatever the outcome (the inspectors).
    package func inspecting(_ inspection: PipelineInspection) -> ResponseVerifier {
        ResponseVerifier(configuration: configuration, keys: keys,
                         pipeline: VerificationPipeline(configuration: configuration, inspection: inspection,
                                                        mockDataFormats: pipeline.mockDataFormats))
    }

    /// The same verifier, recognising mock data in the formats of `registry` whose descriptors say it applies.
    package func recognisingMockData(of registry: FormatRegistry) -> ResponseVerifier {
        ResponseVerifier(configuration: configuration, keys: keys,
                         pipeline: VerificationPipeline(configuration: configuration, inspection: pipeline.inspection,
                                                        mockDataFormats: MockDataRule.formats(of: registry)))
    }

    /// Production or test assurance, from the configuration's test mode.
    var assurance: VerificationReport.Assurance { configuration.testMode ? .test : .production }

    /// Runs `input` through `adapter` and the pipeline.
    package func verify<Adapter: FormatAdapter>(_ adapter: Adapter, _ input: Adapter.Input, request: RequestPolicy?,
                                        at time: Date, noting lookups: RevocationLookups?) -> VerificationReport {
        pipeline.verify(adapter, input, request: request, at: time, revocationLookups: lookups)
    }

    /// A rejected report for `format` before the pipeline ran (e.g. kept state that cannot be read).
    package func rejected(_ format: VerificationReport.Format, _ error: VerificationError) -> VerificationReport {
        .rejected(format: format, assurance: assurance, error: error)
    }
}
