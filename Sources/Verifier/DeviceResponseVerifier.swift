import CryptoCore
import Foundation
import Mdoc

/// Verifies a bare ISO/IEC 18013-5 DeviceResponse against a session transcript the caller built, through the
/// shared pipeline with `DeviceResponseAdapter`.
public final class DeviceResponseVerifier: Sendable {
    /// The configuration this verifier was created with.
    public let configuration: VerifierConfiguration
    let pipeline: VerificationPipeline

    /// Creates a verifier whose trust store, limits and policies come from `configuration`.
    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        self.pipeline = VerificationPipeline(configuration: configuration)
    }

    /// Verifies `deviceResponse` against `transcript` as of `time` and returns the report; failures are in the report.
    ///
    /// `readerKey` is the reader's ephemeral private key, needed only for deviceMac. A nil `request` skips the
    /// request-policy check.
    public func verify(deviceResponse: [UInt8], transcript: SessionTranscript, readerKey: PrivateKey? = nil,
                       request: RequestPolicy? = nil, at time: Date = Date()) -> VerificationReport {
        pipeline.verify(DeviceResponseAdapter(), .init(deviceResponse: deviceResponse, transcript: transcript, readerKey: readerKey),
                        request: request, at: time)
    }
}
