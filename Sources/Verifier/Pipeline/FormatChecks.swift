import Mdoc

/// The checks of the format front doors, with the codes each can raise (the mdoc layer's are in `Mdoc`'s
/// `CheckCatalog.swift`). Each format passes its own clause when it records one of these.
extension CheckID {
    public static let inputSize = CheckID("input.size", clause: "input ceilings (README, Limits)", codes: [.inputMalformed])
    public static let envelopeStructure = CheckID(
        "envelope.structure", clause: "the format's envelope", codes: [.inputMalformed, .envelopeUnsupported])
    public static let envelopeAlgorithm = CheckID(
        "envelope.algorithm", clause: "the format's envelope", codes: [.envelopeUnsupported, .inputMalformed])
    public static let envelopeTestKey = CheckID("envelope.test_key", clause: "the format's envelope", codes: [.envelopeTestKey])
    public static let envelopeRecipient = CheckID(
        "envelope.recipient", clause: "the format's envelope", codes: [.envelopeRecipientMismatch])
    public static let envelopeTranscript = CheckID(
        "envelope.transcript", clause: "the format's envelope", codes: [.envelopeTranscriptMismatch])
    public static let hpkeOpen = CheckID("hpke.open", clause: "RFC 9180 §5.1, §6.1", codes: [.hpkeOpenFailed])
    public static let responseTopics = CheckID("response.topics", clause: "the format's envelope", codes: [.responseMalformed])
    public static let responseDecode = CheckID(
        "response.decode", clause: "RFC 8949 §5.3 (well-formedness)", codes: [.responseMalformed, .inputMalformed])

    // OpenID4VP over the Digital Credentials API (docs/formats.md §7).
    public static let openID4VPResponse = CheckID(
        "openid4vp.response", clause: "OpenID4VP 1.0 §8.5, Appendix A.2, A.4",
        codes: [.inputMalformed, .openID4VPWalletError, .openID4VPEncryptionRequired])
    public static let jweStructure = CheckID(
        "jwe.structure", clause: "OpenID4VP 1.0 §8.3; RFC 7516 §7.1", codes: [.jweMalformed, .jweEphemeralKeyInvalid])
    public static let jweAlgorithm = CheckID(
        "jwe.algorithm", clause: "OpenID4VP 1.0 §8.3; RFC 7518 §4.6, §5.3",
        codes: [.jweAlgorithmUnsupported, .jweEncryptionNotAllowed, .jweCompressionUnsupported])
    public static let jweRecipient = CheckID("jwe.recipient", clause: "OpenID4VP 1.0 §8.3 (kid)", codes: [.jweKeyIDMismatch])
    public static let jweDecrypt = CheckID(
        "jwe.decrypt", clause: "RFC 7518 §4.6.2 (Concat KDF), RFC 7516 §5.2 (AES-GCM with the protected header as AAD)",
        codes: [.jweDecryptionFailed])
    public static let vpTokenStructure = CheckID(
        "vp_token.structure", clause: "OpenID4VP 1.0 §8.1, Appendix B.2.5", codes: [.vpTokenMalformed])

    /// Every check of the format front doors.
    public static let formatChecks: [CheckID] = [
        .inputSize, .envelopeStructure, .envelopeAlgorithm, .envelopeTestKey, .envelopeRecipient, .envelopeTranscript,
        .hpkeOpen, .responseTopics, .responseDecode,
        .openID4VPResponse, .jweStructure, .jweAlgorithm, .jweRecipient, .jweDecrypt, .vpTokenStructure,
    ]

    /// Every check a verification report can hold.
    public static let verificationChecks: [CheckID] = formatChecks + mdocChecks
}
