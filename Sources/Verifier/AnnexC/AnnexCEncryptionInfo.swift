import CBOR
import CryptoCore
import MdocModel

/// `EncryptionInfo = ["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]` (ISO/IEC TS 18013-7 Annex C,
/// docs/formats.md §2.1; the encoding follows Apple's sample request).
public struct AnnexCEncryptionInfo: Sendable {
    /// The protocol identifier `dcapi`, the first element of EncryptionInfo and of EncryptedResponse.
    public static let protocolIdentifier = "dcapi"

    /// The request's nonce, bound into the session transcript (32 random bytes in requests this library creates).
    public let nonce: [UInt8]
    /// P-256: the HPKE KEM of Annex C is DHKEM(P-256, HKDF-SHA256).
    public let recipientPublicKey: PublicKey

    /// Creates an EncryptionInfo; Annex C needs a P-256 `recipientPublicKey`, which this initializer does not check.
    public init(nonce: [UInt8], recipientPublicKey: PublicKey) {
        self.nonce = nonce
        self.recipientPublicKey = recipientPublicKey
    }

    /// The EncryptionInfo encoded as CBOR.
    ///
    /// The map keys come in the order of Apple's sample; the COSE_Key as `{1: 2, -1: 1, -2: x, -3: y}` (no alg, no
    /// kid).
    public var encoded: [UInt8] {
        CBOREncoder.encode(.array([
            .text(Self.protocolIdentifier),
            .map([
                (.text("nonce"), .bytes(nonce)),
                (.text("recipientPublicKey"), COSEKey.encode(recipientPublicKey)),
            ]),
        ]))
    }

    /// `Base64EncryptionInfo`: base64url without padding, the exact text the server sends and keeps.
    public var base64URL: String { Base64URL.encode(encoded) }

    /// Parses the base64url text of an EncryptionInfo (what a wallet or a test does; the verifier never
    /// re-parses its own). Errors are `input.malformed`.
    public init(base64URL text: String) throws(VerificationError) {
        guard let bytes = Base64URL.decodeStrict(text) else {
            throw VerificationError(.inputMalformed, "EncryptionInfo is not base64url")
        }
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes)
        } catch {
            throw VerificationError(.inputMalformed, "EncryptionInfo is not well-formed CBOR: \(error)")
        }
        guard let parts = item.array, parts.count == 2, parts[0].text == Self.protocolIdentifier,
              parts[1].isMap
        else {
            throw VerificationError(.inputMalformed, "EncryptionInfo is not [\"dcapi\", {…}]")
        }
        guard let nonce = parts[1]["nonce"]?.bytes, !nonce.isEmpty else {
            throw VerificationError(.inputMalformed, "EncryptionInfo has no bstr `nonce`")
        }
        guard let keyItem = parts[1]["recipientPublicKey"] else {
            throw VerificationError(.inputMalformed, "EncryptionInfo has no `recipientPublicKey`")
        }
        let key: PublicKey
        do {
            key = try COSEKey.publicKey(from: keyItem)
        } catch {
            throw VerificationError(.inputMalformed, "recipientPublicKey: \(error)")
        }
        guard key.curve == .p256 else {
            throw VerificationError(.inputMalformed, "recipientPublicKey is \(key.curve.rawValue), Annex C uses P-256")
        }
        self.nonce = Array(nonce)
        self.recipientPublicKey = key
    }
}
