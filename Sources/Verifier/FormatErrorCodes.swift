import Mdoc

// Codes raised by the format front doors: the envelope around a DeviceResponse and its decryption.
extension ErrorCode {
    /// `envelope.unsupported`: an envelope algorithm, mode or protocol identifier the verifier does not support, or a
    /// decryption key that is not P-256.
    public static let envelopeUnsupported = ErrorCode("envelope.unsupported")
    /// `envelope.recipient_mismatch`: the Apple envelope's pkRHash matches none of the configured decryption keys.
    public static let envelopeRecipientMismatch = ErrorCode("envelope.recipient_mismatch")
    /// `envelope.test_key`: the response is encrypted to Apple's published test key (or that key is loaded) outside
    /// test mode.
    public static let envelopeTestKey = ErrorCode("envelope.test_key")
    /// `envelope.transcript_mismatch`: the Apple envelope's infoHash differs from the session transcript built from the
    /// server's values (another nonce, merchant ID or team ID).
    public static let envelopeTranscriptMismatch = ErrorCode("envelope.transcript_mismatch")
    /// `hpke.open_failed`: HPKE decryption failed (another key, origin or encryptionInfo, or a tampered ciphertext).
    public static let hpkeOpenFailed = ErrorCode("hpke.open_failed")
    // OpenID4VP over the Digital Credentials API (docs/formats.md §7).
    /// `openid4vp.wallet_error`: the wallet answered with an OpenID4VP `error` (e.g. `access_denied`); the message
    /// quotes it.
    public static let openID4VPWalletError = ErrorCode("openid4vp.wallet_error")
    /// `openid4vp.encryption_required`: a plain `vp_token` answered a request for an encrypted (`dc_api.jwt`) response.
    public static let openID4VPEncryptionRequired = ErrorCode("openid4vp.encryption_required")
    /// `jwe.malformed`: the response is not a well-formed compact JWE (segments, base64url, header JSON with `alg`,
    /// `enc` and `epk`, IV and tag sizes).
    public static let jweMalformed = ErrorCode("jwe.malformed")
    /// `jwe.alg_unsupported`: the JWE `alg` is not `ECDH-ES`, or `crit` names parameters this verifier does not
    /// process.
    public static let jweAlgorithmUnsupported = ErrorCode("jwe.alg_unsupported")
    /// `jwe.enc_not_allowed`: the JWE `enc` is not one the request offered.
    public static let jweEncryptionNotAllowed = ErrorCode("jwe.enc_not_allowed")
    /// `jwe.zip_unsupported`: the JWE `zip` is present and not `DEF`.
    public static let jweCompressionUnsupported = ErrorCode("jwe.zip_unsupported")
    /// `jwe.kid_mismatch`: the JWE `kid` is not the request's key, or the stored request has no encryption key.
    public static let jweKeyIDMismatch = ErrorCode("jwe.kid_mismatch")
    /// `jwe.epk_invalid`: the JWE `epk` is not an EC P-256 point.
    public static let jweEphemeralKeyInvalid = ErrorCode("jwe.epk_invalid")
    /// `jwe.decryption_failed`: ECDH or AES-GCM open failed (another key, a changed header or ciphertext), or a `DEF`
    /// plaintext is invalid or inflates past the input ceiling.
    public static let jweDecryptionFailed = ErrorCode("jwe.decryption_failed")
    /// `vp_token.malformed`: the `vp_token` is not one base64url DeviceResponse per credential query id the request
    /// asked for.
    public static let vpTokenMalformed = ErrorCode("vp_token.malformed")
    /// `vp_token.query_unanswered`: the `vp_token` leaves a credential query of the request unanswered (every query is
    /// required: the request sends no `credential_sets`).
    public static let vpTokenQueryUnanswered = ErrorCode("vp_token.query_unanswered")
    /// `vp_token.doctype_mismatch`: a document presented for a credential query is not of that query's
    /// `doctype_value`.
    public static let vpTokenDocTypeMismatch = ErrorCode("vp_token.doctype_mismatch")

    /// Every code the format front doors raise (beside `mdocCodes`).
    public static let formatCodes: [ErrorCode] = [
        .envelopeUnsupported, .envelopeRecipientMismatch, .envelopeTestKey, .envelopeTranscriptMismatch, .hpkeOpenFailed,
        .openID4VPWalletError, .openID4VPEncryptionRequired, .jweMalformed, .jweAlgorithmUnsupported, .jweEncryptionNotAllowed,
        .jweCompressionUnsupported, .jweKeyIDMismatch, .jweEphemeralKeyInvalid, .jweDecryptionFailed, .vpTokenMalformed,
        .vpTokenQueryUnanswered, .vpTokenDocTypeMismatch,
    ]

    /// Every code a verification report can carry.
    public static let verificationCodes: [ErrorCode] = mdocCodes + revocationCodes + [.vicalStale] + formatCodes
}
