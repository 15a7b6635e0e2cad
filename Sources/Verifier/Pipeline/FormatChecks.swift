import Mdoc
import MdocModel

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
    /// `hpke.open`: HPKE decryption of the response with the session transcript as info (Apple in-app and Annex C).
    public static let hpkeOpen = CheckID("hpke.open", clause: "RFC 9180 §5.1, §6.1", codes: [.hpkeOpenFailed])
    /// `response.decode`: the DeviceResponse is well-formed CBOR within the configured limits.
    public static let responseDecode = CheckID(
        "response.decode", clause: "RFC 8949 §5.3 (well-formedness)", codes: [.responseMalformed, .inputMalformed])


    /// The checks more than one format's front door records.
    public static let sharedFormatChecks: [CheckID] = [.inputSize, .envelopeStructure, .hpkeOpen, .responseDecode, .issuerMockData]

    /// Every check of the format front doors: the shared ones and each registered format's.
    public static var formatChecks: [CheckID] { sharedFormatChecks + FormatRegistry.descriptors.flatMap(\.checks) }

    /// Every check a verification report can hold.
    public static var verificationChecks: [CheckID] { formatChecks + mdocChecks }
}
