import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc` over the Digital Credentials API).
    ///
    /// `[null, null, ["dcapi", SHA-256(cbor([Base64EncryptionInfo, SerializedOrigin]))]]`
    /// (docs/formats.md §2.3). `encryptionInfo` is the exact base64url text the server sent, never
    /// a re-encoding: padded and unpadded spellings give different transcripts.
    public static func annexC(encryptionInfo: String, origin: String) -> SessionTranscript {
        SessionTranscript(built: .array([
            .null, .null,
            .array([.text("dcapi"), .bytes(hash(.array([.text(encryptionInfo), .text(origin)])))]),
        ]))
    }
}
