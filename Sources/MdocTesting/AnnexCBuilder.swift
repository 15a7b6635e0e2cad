import CBOR
import CryptoCore
import HPKE
import Mdoc
import MdocModel
import Verifier

/// The relying party's side of one ISO/IEC 18013-7 Annex C request (`org-iso-mdoc` over the Digital
/// Credentials API): its recipient key, the exact `encryptionInfo` string it sent, and its origin.
public struct AnnexCRequest: Sendable {
    /// The relying party's private recipient key; its public half is the `recipientPublicKey` in `encryptionInfo`.
    public let recipientKey: PrivateKey
    /// The request nonce, as sent in `encryptionInfo`.
    public let nonce: [UInt8]
    /// The request's `encryptionInfo` exactly as sent: base64url (no padding) of
    /// `["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]`.
    public let encryptionInfo: String
    /// The page origin, e.g. `https://shop.example`.
    public let origin: String

    /// Creates a request from a recipient key, a nonce and an origin, and encodes its `encryptionInfo`.
    public init(recipientKey: PrivateKey, nonce: [UInt8], origin: String) {
        self.recipientKey = recipientKey
        self.nonce = nonce
        self.origin = origin
        self.encryptionInfo = AnnexCEncryptionInfo(nonce: nonce, recipientPublicKey: recipientKey.publicKey).base64URL
    }

    /// A request whose key and nonce come from `seed`.
    ///
    /// The recipient key is on P-256. Throws when the seeded key cannot be derived.
    public init(seed: UInt64, origin: String = "https://verifier.example") throws {
        let material = SeedMaterial(seed)
        try self.init(recipientKey: material.key("annex-c/recipient", curve: .p256),
                      nonce: material.bytes("annex-c/nonce", count: 32), origin: origin)
    }

    /// The Annex C session transcript of this request:
    /// `[null, null, ["dcapi", SHA-256(cbor([encryptionInfo, origin]))]]`.
    public var transcript: SessionTranscript { .annexC(encryptionInfo: encryptionInfo, origin: origin) }
}

/// The Annex C response: the bare DeviceResponse sealed with HPKE base mode P-256 / HKDF-SHA256 / AES-128-GCM,
/// info = the Annex C transcript, empty aad, as `["dcapi", {"enc": bstr, "cipherText": bstr}]`, returned as the
/// base64url-without-padding string the page receives in `DigitalCredential.data.response`.
public enum AnnexCResponseBuilder {
    /// Seals a DeviceResponse (its CBOR bytes) to `recipientKey` under `transcript` and returns the response string.
    ///
    /// `corruptCiphertext` flips one bit of the ciphertext after sealing (fault tests). Throws
    /// `SimulationError.unsupported` when `recipientKey` is not a P-256 key, or the HPKE error when sealing fails.
    public static func seal(deviceResponse: [UInt8], recipientKey: PublicKey, transcript: SessionTranscript,
                            corruptCiphertext: Bool = false) throws -> String {
        guard recipientKey.curve == .p256 else { throw SimulationError.unsupported("Annex C needs a P-256 recipient key") }
        let sealed = try HPKE.seal(deviceResponse, to: recipientKey, transcript: transcript, corruptingCiphertext: corruptCiphertext)
        let response = CBOREncoder.encode(.array([
            .text("dcapi"),
            .map([(.text("enc"), .bytes(sealed.encapsulatedKey)), (.text("cipherText"), .bytes(sealed.ciphertext))]),
        ]))
        return Base64URL.encode(response)
    }
}

extension HPKE {
    /// Base mode P-256 / HKDF-SHA256 / AES-128-GCM with info = the transcript and an empty aad, as both sealed formats
    /// use it; `corruptingCiphertext` flips one bit in the middle of the ciphertext (fault tests).
    static func seal(_ plaintext: [UInt8], to recipientKey: PublicKey, transcript: SessionTranscript,
                     corruptingCiphertext: Bool) throws -> (encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        var sealed = try seal(suite: .p256SHA256AES128GCM, recipientKey: recipientKey, info: transcript.bytes, aad: [UInt8](), plaintext: plaintext)
        if corruptingCiphertext, !sealed.ciphertext.isEmpty {
            sealed.ciphertext[sealed.ciphertext.count / 2] ^= 0x01
        }
        return sealed
    }
}
