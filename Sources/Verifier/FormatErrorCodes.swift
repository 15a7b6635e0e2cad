import Mdoc

// Codes raised by the format front doors: the envelope around a DeviceResponse and its decryption.
extension ErrorCode {
    public static let envelopeUnsupported = ErrorCode("envelope.unsupported")
    public static let envelopeRecipientMismatch = ErrorCode("envelope.recipient_mismatch")
    public static let envelopeTestKey = ErrorCode("envelope.test_key")
    public static let envelopeTranscriptMismatch = ErrorCode("envelope.transcript_mismatch")
    public static let hpkeOpenFailed = ErrorCode("hpke.open_failed")
    // OpenID4VP over the Digital Credentials API (docs/formats.md §7).
    public static let openID4VPWalletError = ErrorCode("openid4vp.wallet_error")
    public static let openID4VPEncryptionRequired = ErrorCode("openid4vp.encryption_required")
    public static let jweMalformed = ErrorCode("jwe.malformed")
    public static let jweAlgorithmUnsupported = ErrorCode("jwe.alg_unsupported")
    public static let jweEncryptionNotAllowed = ErrorCode("jwe.enc_not_allowed")
    public static let jweCompressionUnsupported = ErrorCode("jwe.zip_unsupported")
    public static let jweKeyIDMismatch = ErrorCode("jwe.kid_mismatch")
    public static let jweEphemeralKeyInvalid = ErrorCode("jwe.epk_invalid")
    public static let jweDecryptionFailed = ErrorCode("jwe.decryption_failed")
    public static let vpTokenMalformed = ErrorCode("vp_token.malformed")

    /// Every code the format front doors raise (beside `mdocCodes`).
    public static let formatCodes: [ErrorCode] = [
        .envelopeUnsupported, .envelopeRecipientMismatch, .envelopeTestKey, .envelopeTranscriptMismatch, .hpkeOpenFailed,
        .openID4VPWalletError, .openID4VPEncryptionRequired, .jweMalformed, .jweAlgorithmUnsupported, .jweEncryptionNotAllowed,
        .jweCompressionUnsupported, .jweKeyIDMismatch, .jweEphemeralKeyInvalid, .jweDecryptionFailed, .vpTokenMalformed,
    ]

    /// Every code a verification report can carry.
    public static let verificationCodes: [ErrorCode] = mdocCodes + revocationCodes + [.vicalStale] + formatCodes
}
