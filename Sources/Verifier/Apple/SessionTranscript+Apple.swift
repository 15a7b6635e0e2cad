import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for Apple "Verify with Wallet" in-app (iOS 16+).
    ///
    /// `[null, null, ["AppleIdentityPresentment_1.0", nonce, merchantID, teamID, pkRHash]]`
    /// (docs/formats.md §1.3; equals Apple's sample byte for byte). `recipientKeyHash` is `pkRHash`: SHA-256 of
    /// the recipient public key as its uncompressed point (docs/formats.md §1.4).
    public static func appleInApp(nonce: [UInt8], merchantID: String, teamID: String, recipientKeyHash: [UInt8]) -> SessionTranscript {
        SessionTranscript(built: .array([
            .null, .null,
            .array([
                .text("AppleIdentityPresentment_1.0"),
                .bytes(nonce),
                .text(merchantID),
                .text(teamID),
                .bytes(recipientKeyHash),
            ]),
        ]))
    }
}
