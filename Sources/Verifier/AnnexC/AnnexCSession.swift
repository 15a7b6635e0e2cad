import CryptoCore
import MdocModel

/// What the server keeps for one Annex C request until its response arrives (docs/formats.md §2.5).
/// Store it server-side, bound to the user's session, and use it once: the verifier itself is stateless and
/// does not detect replays.
public struct AnnexCSession: Sendable {
    /// The recipient private key; its public half is in `encryptionInfo`. Fresh per request.
    public let privateKey: PrivateKey
    /// The exact base64url text sent as `data.encryptionInfo`; the transcript hashes this text.
    public let encryptionInfo: String
    /// The serialized origin of the page that called navigator.credentials.get, from the server's own records.
    public let origin: String
    /// What was asked for; nil skips the request-policy check.
    public let request: RequestPolicy?

    /// Creates a session from the values kept for one request.
    public init(privateKey: PrivateKey, encryptionInfo: String, origin: String, request: RequestPolicy?) {
        self.privateKey = privateKey
        self.encryptionInfo = encryptionInfo
        self.origin = origin
        self.request = request
    }

    /// ISO/IEC TS 18013-7 Annex C session transcript, from the kept text and origin.
    public var transcript: SessionTranscript { .annexC(encryptionInfo: encryptionInfo, origin: origin) }
}
