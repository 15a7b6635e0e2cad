import Mdoc

/// The checks of the format front doors, with the codes each can raise (the mdoc layer's are in `Mdoc`'s
/// `CheckCatalog.swift`). Each format passes its own clause when it records one of these.
extension CheckID {
    /// `input.size`: the response is within the input ceiling derived from `CBORLimits.maxInputBytes` (the first line
    /// of every report).
    public static let inputSize = CheckID("input.size", clause: "input ceilings (README, Ceilings)", codes: [.inputMalformed])
    /// `envelope.structure`: the format's envelope has the expected shape (the Apple envelope, the Annex C
    /// EncryptedResponse).
    public static let envelopeStructure = CheckID(
        "envelope.structure", clause: "the format's envelope", codes: [.inputMalformed, .envelopeUnsupported])
    /// `envelope.algorithm`: the Apple envelope names APPLE-HPKE-v1 mode 0 with a 65-byte uncompressed P-256 ephemeral
    /// key.
    public static let envelopeAlgorithm = CheckID(
        "envelope.algorithm", clause: "the format's envelope", codes: [.envelopeUnsupported, .inputMalformed])
    /// `envelope.test_key`: whether the response is encrypted to Apple's published test key (a failure outside test
    /// mode, a warning in it).
    public static let envelopeTestKey = CheckID("envelope.test_key", clause: "the format's envelope", codes: [.envelopeTestKey])
    /// `envelope.recipient`: the Apple envelope's pkRHash matches a configured decryption key.
    public static let envelopeRecipient = CheckID(
        "envelope.recipient", clause: "the format's envelope", codes: [.envelopeRecipientMismatch])
    /// `envelope.transcript`: the Apple envelope's infoHash is SHA-256 of the session transcript built from the
    /// server's values.
    public static let envelopeTranscript = CheckID(
        "envelope.transcript", clause: "the format's envelope", codes: [.envelopeTranscriptMismatch])
    /// `hpke.open`: HPKE decryption of the response with the session transcript as info (Apple in-app and Annex C).
    public static let hpkeOpen = CheckID("hpke.open", clause: "RFC 9180 §5.1, §6.1", codes: [.hpkeOpenFailed])
    /// `response.topics`: the decrypted Apple plaintext is a CBOR map with an `identity` entry holding the
    /// DeviceResponse.
    public static let responseTopics = CheckID("response.topics", clause: "the format's envelope", codes: [.responseMalformed])
    /// `response.decode`: the DeviceResponse is well-formed CBOR within the configured limits.
    public static let responseDecode = CheckID(
        "response.decode", clause: "RFC 8949 §5.3 (well-formedness)", codes: [.responseMalformed, .inputMalformed])

    // OpenID4VP over the Digital Credentials API (docs/formats.md §7).
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

    /// Every check of the format front doors.
    public static let formatChecks: [CheckID] = [
        .inputSize, .envelopeStructure, .envelopeAlgorithm, .envelopeTestKey, .envelopeRecipient, .envelopeTranscript,
        .hpkeOpen, .responseTopics, .responseDecode,
        .openID4VPResponse, .jweStructure, .jweAlgorithm, .jweRecipient, .jweDecrypt, .vpTokenStructure,
        .vpTokenDocType,
    ]

    /// Every check a verification report can hold.
    public static let verificationChecks: [CheckID] = formatChecks + mdocChecks
}
