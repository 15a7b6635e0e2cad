import MdocModel

extension VerificationReport.Format {
    /// Apple "Verify with Wallet" in-app, `PKIdentityDocument.encryptedData` (`apple-app`).
    public static let appleApp = Self(registering: "apple-app")
}

extension FormatDescriptor {
    /// Apple in-app: the APPLE-HPKE-v1 envelope, decrypted with the merchant's keys, over a transcript of the nonce,
    /// merchant ID and team ID.
    public static let appleApp = FormatDescriptor(
        format: .appleApp, title: "Apple Verify with Wallet (in-app)", documentation: "docs/formats.md §1",
        checks: [.envelopeAlgorithm, .envelopeTestKey, .envelopeRecipient, .envelopeTranscript, .responseTopics],
        codes: [.envelopeRecipientMismatch, .envelopeTestKey, .envelopeTranscriptMismatch],
        wire: .bytes, mockDataApplies: true,
        pastedState: { values throws(VerificationError) in
            guard let nonce = values["nonce"].flatMap(BinaryText.decode) else {
                throw VerificationError(.inputMalformed, "an apple-app response needs its nonce (hex or base64) or a requestId")
            }
            return try AppleAppFlow.state(nonce: nonce)
        },
        // Without a merchant key no answer can be opened: no flow (a server without Apple settings does not offer it).
        flow: { environment, verifier in environment.recipientKeys.isEmpty ? nil : AppleAppFlow(environment, verifier: verifier) })
}

// The Apple envelope's own checks and codes.
extension CheckID {
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
    /// `response.topics`: the decrypted Apple plaintext is a CBOR map with an `identity` entry holding the
    /// DeviceResponse.
    public static let responseTopics = CheckID("response.topics", clause: "the format's envelope", codes: [.responseMalformed])
}

extension ErrorCode {
    /// `envelope.recipient_mismatch`: the Apple envelope's pkRHash matches none of the configured decryption keys.
    public static let envelopeRecipientMismatch = ErrorCode("envelope.recipient_mismatch")
    /// `envelope.test_key`: the response is encrypted to Apple's published test key (or that key is loaded) outside
    /// test mode.
    public static let envelopeTestKey = ErrorCode("envelope.test_key")
    /// `envelope.transcript_mismatch`: the Apple envelope's infoHash differs from the session transcript built from the
    /// server's values (another nonce, merchant ID or team ID).
    public static let envelopeTranscriptMismatch = ErrorCode("envelope.transcript_mismatch")
}
