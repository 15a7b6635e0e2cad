import CBOR
import CryptoCore
import Foundation
import Mdoc

/// Verifies a bare ISO/IEC 18013-5 DeviceResponse against a session transcript the caller built
/// (proximity, OpenID4VP, ProximityReader on iPhone).
public final class DeviceResponseVerifier: Sendable {
    public let configuration: VerifierConfiguration
    let mdoc: MdocVerifier

    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        self.mdoc = MdocVerifier(
            trustStore: configuration.trustStore,
            options: MdocVerificationOptions(profile: configuration.profile, clockSkew: configuration.clockSkew, allowDeviceMac: true))
    }

    /// `readerKey` is the reader's ephemeral private key, needed only for deviceMac.
    public func verify(deviceResponse: [UInt8], transcript: SessionTranscript, readerKey: PrivateKey? = nil,
                       request: RequestPolicy? = nil, at time: Date = Date()) -> VerificationReport {
        var log = CheckLog()
        var timings = StageTimings()
        let assurance: VerificationReport.Assurance = configuration.testMode ? .test : .production
        let item: CBORItem
        do {
            item = try timings.measure(\.decode) { try CBORDecoder.decode(deviceResponse, limits: configuration.cborLimits) }
        } catch {
            log.fail("response.decode", .inputMalformed, "DeviceResponse is not well-formed CBOR: \(error)",
                     clause: "RFC 8949 §5.3 (well-formedness)")
            return VerificationReport(format: .deviceResponse, assurance: assurance, log: log, documents: [], timings: timings)
        }
        let outcome = mdoc.verify(deviceResponse: item, transcript: transcript, time: time, readerKey: readerKey, request: request)
        log.append(contentsOf: outcome.log)
        timings += outcome.timings
        return VerificationReport(format: .deviceResponse, assurance: assurance, log: log, documents: outcome.documents, timings: timings)
    }
}
