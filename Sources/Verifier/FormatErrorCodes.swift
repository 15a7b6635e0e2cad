import Mdoc

// Codes raised by the format front doors: the envelope around a DeviceResponse and its decryption.
extension ErrorCode {
    public static let envelopeUnsupported = ErrorCode("envelope.unsupported")
    public static let envelopeRecipientMismatch = ErrorCode("envelope.recipient_mismatch")
    public static let envelopeTestKey = ErrorCode("envelope.test_key")
    public static let envelopeTranscriptMismatch = ErrorCode("envelope.transcript_mismatch")
    public static let hpkeOpenFailed = ErrorCode("hpke.open_failed")

    /// Every code the format front doors raise (beside `mdocCodes`).
    public static let formatCodes: [ErrorCode] = [
        .envelopeUnsupported, .envelopeRecipientMismatch, .envelopeTestKey, .envelopeTranscriptMismatch, .hpkeOpenFailed,
    ]

    /// Every code a verification report can carry.
    public static let verificationCodes: [ErrorCode] = mdocCodes + revocationCodes + [.vicalStale] + formatCodes
}
