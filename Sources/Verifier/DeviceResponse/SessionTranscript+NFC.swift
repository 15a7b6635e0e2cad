import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for ISO/IEC 18013-5 device engagement by NFC (negotiated or static handover).
    ///
    /// ISO/IEC 18013-5 §9.1.5.1: `[DeviceEngagementBytes, EReaderKeyBytes, [HandoverSelect, HandoverRequest / null]]`.
    ///
    /// - Parameters:
    ///   - deviceEngagement: the DeviceEngagement CBOR carried in the Handover Select message (untagged).
    ///   - eReaderKey: the reader's ephemeral COSE_Key exactly as sent in SessionEstablishment (untagged).
    ///   - handoverSelect: the whole NDEF Handover Select message, as received.
    ///   - handoverRequest: the whole NDEF Handover Request message the reader sent; nil for static handover.
    /// - Throws: `input.malformed` when the engagement or the key is not one CBOR map.
    public static func nfcEngagement(deviceEngagement: [UInt8], eReaderKey: [UInt8], handoverSelect: [UInt8],
                                     handoverRequest: [UInt8]?) throws(VerificationError) -> SessionTranscript {
        SessionTranscript(built: .array([
            try embeddedMap(deviceEngagement, what: "DeviceEngagement"),
            try embeddedMap(eReaderKey, what: "EReaderKey COSE_Key"),
            .array([.bytes(handoverSelect), handoverRequest.map { .bytes($0) } ?? .null]),
        ]))
    }
}
