import MdocModel

extension VerificationReport.Format {
    /// OpenID4VP over the Digital Credentials API (`openid4vp`).
    public static let openID4VP = Self(registering: "openid4vp")
}

extension FormatDescriptor {
    /// OpenID4VP 1.0 over the Digital Credentials API: DCQL, an encrypted (`dc_api.jwt`) or plain (`dc_api`) answer.
    public static let openID4VP = FormatDescriptor(
        format: .openID4VP, title: "OpenID4VP 1.0 over the Digital Credentials API", documentation: "docs/formats.md §7",
        checks: [.openID4VPResponse, .jweStructure, .jweAlgorithm, .jweRecipient, .jweDecrypt, .vpTokenStructure, .vpTokenDocType,
                 .haipEncryption, .haipPresentation],
        codes: [.openID4VPWalletError, .openID4VPEncryptionRequired, .jweMalformed, .jweAlgorithmUnsupported, .jweEncryptionNotAllowed,
                .jweCompressionUnsupported, .jweKeyIDMismatch, .jweEphemeralKeyInvalid, .jweDecryptionFailed, .vpTokenMalformed,
                .vpTokenQueryUnanswered, .vpTokenDocTypeMismatch] + ErrorCode.haipCodes,
        wire: .digitalCredentials(["openid4vp-v1-unsigned", "openid4vp-v1-signed", "openid4vp-v1-multisigned", "openid4vp"],
                                  wholeCredential: true),
        bindsOrigin: true,
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
    /// `haip.encryption` (HAIP profile only): the answer is a `dc_api.jwt` JWE with `alg` `ECDH-ES`, `enc` `A128GCM` or
    /// `A256GCM`, and the `kid` of the request's key.
    public static let haipEncryption = CheckID(
        "haip.encryption", clause: "HAIP 1.0 §5 (OpenID4VP 1.0 §8.3), §5.2 (dc_api.jwt)",
        codes: [.haipEncryptionRequired, .haipAlgorithmNotAllowed, .haipEncryptionNotAllowed, .haipKeyIDRequired])
    /// `haip.presentation` (HAIP profile only): each `vp_token` member is an array holding one DeviceResponse, and each
    /// DeviceResponse holds one mdoc.
    public static let haipPresentation = CheckID(
        "haip.presentation", clause: "HAIP 1.0 §5.3.1; §5 (DCQL response, OpenID4VP 1.0 §8.1)",
        codes: [.haipPresentationNotArray, .haipDeviceResponsesPerQuery, .haipDocumentsPerDeviceResponse])
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

    /// `haip.encryption_required`: a plain `vp_token` (`dc_api`) answered a request made under the HAIP profile, which
    /// uses `dc_api.jwt` only (HAIP 1.0 §5.2).
    public static let haipEncryptionRequired = ErrorCode("haip.encryption_required")
    /// `haip.alg_not_allowed`: the JWE `alg` is not `ECDH-ES` (HAIP 1.0 §5).
    public static let haipAlgorithmNotAllowed = ErrorCode("haip.alg_not_allowed")
    /// `haip.enc_not_allowed`: the JWE `enc` is neither `A128GCM` nor `A256GCM` (HAIP 1.0 §5).
    public static let haipEncryptionNotAllowed = ErrorCode("haip.enc_not_allowed")
    /// `haip.kid_required`: the JWE has no `kid`, which OpenID4VP 1.0 §8.3 requires when the request's key has one
    /// (HAIP 1.0 §5 makes that section mandatory; the default profile only warns).
    public static let haipKeyIDRequired = ErrorCode("haip.kid_required")
    /// `haip.vp_token_not_array`: a `vp_token` member is a bare string (the pre-1.0 shape), not the DCQL response's
    /// array (HAIP 1.0 §5, OpenID4VP 1.0 §8.1).
    public static let haipPresentationNotArray = ErrorCode("haip.vp_token_not_array")
    /// `haip.device_responses_per_query`: a credential query is answered with more than one DeviceResponse (HAIP 1.0
    /// §5.3.1: one DeviceResponse per mdoc, each matching its own query).
    public static let haipDeviceResponsesPerQuery = ErrorCode("haip.device_responses_per_query")
    /// `haip.documents_per_device_response`: a DeviceResponse holds more than one mdoc (HAIP 1.0 §5.3.1).
    public static let haipDocumentsPerDeviceResponse = ErrorCode("haip.documents_per_device_response")

    /// The codes of the HAIP profile's checks.
    public static let haipCodes: [ErrorCode] = [
        .haipEncryptionRequired, .haipAlgorithmNotAllowed, .haipEncryptionNotAllowed, .haipKeyIDRequired, .haipPresentationNotArray,
        .haipDeviceResponsesPerQuery, .haipDocumentsPerDeviceResponse,
    ]
}
