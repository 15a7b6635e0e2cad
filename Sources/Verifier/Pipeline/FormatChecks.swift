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

    /// Every check of the format front doors.
    public static let formatChecks: [CheckID] = [
        .inputSize, .envelopeStructure, .envelopeAlgorithm, .envelopeTestKey, .envelopeRecipient, .envelopeTranscript,
        .hpkeOpen, .responseTopics, .responseDecode,
    ]

    /// Every check a verification report can hold.
    public static let verificationChecks: [CheckID] = formatChecks + mdocChecks
}
