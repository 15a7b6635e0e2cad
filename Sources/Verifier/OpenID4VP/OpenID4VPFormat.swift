import Mdoc

extension VerificationReport.Format {
    /// OpenID4VP over the Digital Credentials API (`openid4vp`).
    public static let openID4VP = Self(registering: "openid4vp")
}

extension FormatDescriptor {
    /// OpenID4VP 1.0 over the Digital Credentials API: DCQL, an encrypted (`dc_api.jwt`) or plain (`dc_api`) answer.
    public static let openID4VP = FormatDescriptor(
        format: .openID4VP, title: "OpenID4VP 1.0 over the Digital Credentials API", documentation: "docs/formats.md §7",
        checks: [.openID4VPResponse, .jweStructure, .jweAlgorithm, .jweRecipient, .jweDecrypt, .vpTokenStructure, .vpTokenDocType],
        codes: [.openID4VPWalletError, .openID4VPEncryptionRequired, .jweMalformed, .jweAlgorithmUnsupported, .jweEncryptionNotAllowed,
                .jweCompressionUnsupported, .jweKeyIDMismatch, .jweEphemeralKeyInvalid, .jweDecryptionFailed, .vpTokenMalformed,
                .vpTokenQueryUnanswered, .vpTokenDocTypeMismatch],
        flow: { environment, verifier in OpenID4VPFlow(environment, verifier: verifier) })
}

// The OpenID4VP front door's own checks and codes (docs/formats.md §7).
extension CheckID {
    /// `openid4vp.response`: the OpenID4VP answer has a known shape and protocol, is not a wallet error, and uses the
    /// response mode the request asked for.
    public static let openID4VPResponse = CheckID(
        "openid4vp.response", clause: "OpenID4VP 1.0 §8.5, Appendix A.2, A.4",
        codes: [.inputMalformed, .openID4VPWalletError, .openID4VPEncryptionRequired])
    /// `jwe.structure`: the compact JWE's segments, protected header and ephemeral key are well-formed.
    public static let jweStructure = CheckID(
        "jwe.structure", clause: "OpenID4VP 1.0 §8.3; RFC 7516 §7.1", codes: [.jweMalformed, .jweEphemeralKeyInvalid])
    /// `jwe.algorithm`: `alg` is `ECDH-ES` with no `crit`, `enc` is one the request offered, and `zip` is absent or
    /// `DEF`.
    public static let jweAlgorithm = CheckID(
        "jwe.algorithm", clause: "OpenID4VP 1.0 §8.3; RFC 7518 §4.6, §5.3",
        codes: [.jweAlgorithmUnsupported, .jweEncryptionNotAllowed, .jweCompressionUnsupported])
    /// `jwe.recipient`: the JWE `kid` names the request's encryption key (checked after decryption; a missing `kid` is
    /// a warning).
    public static let jweRecipient = CheckID("jwe.recipient", clause: "OpenID4VP 1.0 §8.3 (kid)", codes: [.jweKeyIDMismatch])
    /// `jwe.decrypt`: ECDH-ES key agreement, Concat KDF and AES-GCM open with the protected header as additional data.
    public static let jweDecrypt = CheckID(
        "jwe.decrypt", clause: "RFC 7518 §4.6.2 (Concat KDF), RFC 7516 §5.2 (AES-GCM with the protected header as AAD)",
        codes: [.jweDecryptionFailed])
    /// `vp_token.structure`: the `vp_token` maps every credential query id of the request, and no other, to one
    /// base64url DeviceResponse.
    public static let vpTokenStructure = CheckID(
        "vp_token.structure", clause: "OpenID4VP 1.0 §8.1, §6.4.2, Appendix B.2.5", codes: [.vpTokenMalformed, .vpTokenQueryUnanswered])
    /// `vp_token.doctype`: every document presented for a credential query has that query's `doctype_value`.
    public static let vpTokenDocType = CheckID(
        "vp_token.doctype", clause: "OpenID4VP 1.0 §6.1, Appendix B.2.3 (meta.doctype_value)", codes: [.vpTokenDocTypeMismatch])
}

extension ErrorCode {
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
}
