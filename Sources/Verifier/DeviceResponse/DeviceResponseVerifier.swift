import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// Verifies a bare ISO/IEC 18013-5 DeviceResponse against a session transcript the caller built: the
/// `ResponseVerifier`, named for this format.
public typealias DeviceResponseVerifier = ResponseVerifier

extension ResponseVerifier {
    /// Verifies `deviceResponse` against `transcript` as of `time` through `DeviceResponseAdapter` and returns the
    /// report; failures are in the report.
    ///
    /// `readerKey` is the reader's ephemeral private key, needed only for deviceMac. A nil `request` skips the
    /// request-policy check. The revocation lists the configured source would have to fetch are noted in `lookups`.
    public func verify(deviceResponse: [UInt8], transcript: SessionTranscript, readerKey: PrivateKey? = nil,
                       request: RequestPolicy? = nil, at time: Date = Date(), noting lookups: RevocationLookups? = nil) -> VerificationReport {
        verify(DeviceResponseAdapter(), .init(deviceResponse: deviceResponse, transcript: transcript, readerKey: readerKey),
               request: request, at: time, noting: lookups)
    }
}
