import MdocModel

extension VerificationReport.Format {
    /// OpenID4VP 1.0 without the Digital Credentials API (`openid4vp-redirect`): the wallet fetches a signed request
    /// object from `request_uri` (a QR code or a same-device link) and posts its answer to `response_uri`
    /// (`direct_post.jwt`).
    public static let openID4VPRedirect = Self(registering: "openid4vp-redirect")
}

// The redirect flow's own checks and codes (docs/formats.md §8). The JWE, `vp_token` and HAIP checks are OpenID4VP's
// (docs/formats.md §7), shared with the Digital Credentials API flow.
extension CheckID {
    /// `redirect.response`: the wallet's POST to `response_uri` is a form with `response` (`direct_post.jwt`) or
    /// `vp_token` (`direct_post`), each parameter once, in the response mode the request asked for, before the request
    /// expired, and not an `error`.
    public static let redirectResponse = CheckID(
        "redirect.response", clause: "OpenID4VP 1.0 §8.2 (direct_post), §8.3.1 (direct_post.jwt), §8.5",
        codes: [.inputMalformed, .openID4VPWalletError, .openID4VPEncryptionRequired, .redirectExpired])
    /// `redirect.state`: the answer carries the `state` of the request it answers (in the JWE payload, and in the form
    /// when it is there too).
    public static let redirectState = CheckID(
        "redirect.state", clause: "OpenID4VP 1.0 §5.2 (state), §8.2; RFC 6749 §4.1.2", codes: [.redirectStateMismatch])
}

extension ErrorCode {
    /// `redirect.state_mismatch`: the answer's `state` is missing or is not the request's: it answers another
    /// transaction, or was changed.
    public static let redirectStateMismatch = ErrorCode("redirect.state_mismatch")
    /// `redirect.expired`: the answer came at or after the request's `exp`.
    public static let redirectExpired = ErrorCode("redirect.expired")
    /// `redirect.wallet_unsupported`: the wallet's `wallet_metadata` (POST to `request_uri`) rules out what this
    /// request needs (its signing algorithm, client identifier prefix, response encryption or `mso_mdoc`): no request
    /// object is served, and the message says which.
    public static let redirectWalletUnsupported = ErrorCode("redirect.wallet_unsupported")
    /// `redirect.request_invalid`: the request cannot be made or its request object signed (a `request_uri` or
    /// `response_uri` that is not an absolute https URL, a reader identity that no longer matches the `client_id`,
    /// `wallet_metadata` that is not a JSON object, an oversized `wallet_nonce`).
    public static let redirectRequestInvalid = ErrorCode("redirect.request_invalid")
}
