import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for ISO/IEC 18013-5 device engagement by QR code.
    ///
    /// ISO/IEC 18013-5 §9.1.5.1: `[DeviceEngagementBytes, EReaderKeyBytes, null]`. Both inputs are wrapped in tag
    /// 24 here.
    ///
    /// - Parameters:
    ///   - deviceEngagement: the DeviceEngagement CBOR exactly as read from the QR code (untagged).
    ///   - eReaderKey: the reader's ephemeral COSE_Key exactly as sent in SessionEstablishment (untagged).
    /// - Throws: `input.malformed` when either is not one CBOR map.
    public static func qrEngagement(deviceEngagement: [UInt8], eReaderKey: [UInt8]) throws(VerificationError) -> SessionTranscript {
        SessionTranscript(built: .array([
            try embeddedMap(deviceEngagement, what: "DeviceEngagement"),
            try embeddedMap(eReaderKey, what: "EReaderKey COSE_Key"),
            .null,
        ]))
    }
}
