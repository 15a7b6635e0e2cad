import CBOR
import CryptoCore

/// `SessionTranscript` (ISO/IEC 18013-5 §9.1.5.1): `[DeviceEngagementBytes / null, EReaderKeyBytes / null, Handover]`.
/// Always built by the verifier from server-side values (or handed in by the caller), never taken from a response.
public struct SessionTranscript: Sendable, Equatable {
    /// The untagged CBOR array. HPKE `info` and `DeviceAuthentication` use these bytes.
    public let bytes: [UInt8]

    /// `SessionTranscriptBytes = #6.24(bstr .cbor SessionTranscript)`; the deviceMac salt hashes these.
    public var taggedBytes: [UInt8] { CBOREncoder.encode(.tagged(24, .bytes(bytes))) }

    /// Caller-supplied transcript: the untagged array, or the tag-24-wrapped `SessionTranscriptBytes`.
    /// The bytes are kept exactly as given.
    public init(encoded: [UInt8]) throws(VerificationError) {
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(encoded)
        } catch {
            throw VerificationError(.inputMalformed, "session transcript is not CBOR: \(error)")
        }
        var array = item
        var exact = encoded
        if let (tag, _) = item.tag, tag == 24 {
            guard let embedded = try? item.decodeEmbedded() else {
                throw VerificationError(.inputMalformed, "tag-24 session transcript does not wrap CBOR")
            }
            array = embedded.item
            exact = Array(embedded.inner)
        }
        guard let parts = array.array, parts.count == 3 else {
            throw VerificationError(.inputMalformed, "session transcript is not a 3-element array")
        }
        self.bytes = exact
    }

    /// A transcript we built ourselves.
    public init(built value: CBORValue) {
        self.bytes = CBOREncoder.encode(value)
    }

    /// Apple "Verify with Wallet" in-app (iOS 16+):
    /// `[null, null, ["AppleIdentityPresentment_1.0", nonce, merchantID, teamID, pkRHash]]`.
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

    /// ISO/IEC 18013-7 Annex C (`org-iso-mdoc` over the Digital Credentials API):
    /// `[null, null, ["dcapi", SHA-256(cbor([encryptionInfo as sent, origin]))]]`.
    public static func annexC(encryptionInfo: String, origin: String) -> SessionTranscript {
        let info = CBOREncoder.encode(.array([.text(encryptionInfo), .text(origin)]))
        return SessionTranscript(built: .array([
            .null, .null,
            .array([.text("dcapi"), .bytes(Digest.hash(.sha256, info))]),
        ]))
    }
}
