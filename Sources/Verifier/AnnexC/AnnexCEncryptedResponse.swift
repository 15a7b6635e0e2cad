import CBOR
import Foundation
import MdocModel

/// The wallet's answer (ISO/IEC TS 18013-7 Annex C; docs/formats.md §2.4):
/// `DigitalCredential.data = {"response": Base64EncryptedResponse}` with
/// `EncryptedResponse = ["dcapi", {"enc": bstr, "cipherText": bstr}]`, base64url without padding.
struct AnnexCEncryptedResponse {
    /// HPKE `enc`: the sender's ephemeral P-256 key, 65-byte uncompressed point.
    let enc: ArraySlice<UInt8>
    let cipherText: ArraySlice<UInt8>

    /// Accepts the `data` JSON object or just its `response` string. Errors: `input.malformed` for every shape
    /// problem, `envelope.unsupported` for another protocol identifier than "dcapi".
    init(_ text: String, limits: CBORLimits) throws(VerificationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let response: String
        if trimmed.hasPrefix("{") {
            guard let object = JSONValue.object(trimmed, maxNodes: 10_000) else {
                throw VerificationError(.inputMalformed, "response JSON is not an object")
            }
            guard let value = object["response"]?.string else {
                throw VerificationError(.inputMalformed, "response JSON has no string `response`")
            }
            response = value
        } else {
            response = trimmed
        }
        guard let bytes = Base64URL.decodeStrict(response), !bytes.isEmpty else {
            throw VerificationError(.inputMalformed, "`response` is not base64url")
        }
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes, limits: limits)
        } catch {
            throw VerificationError(.inputMalformed, "EncryptedResponse is not well-formed CBOR: \(error)")
        }
        guard let parts = item.array, parts.count == 2, let identifier = parts[0].text, let data = parts[1].map else {
            throw VerificationError(.inputMalformed, "EncryptedResponse is not [tstr, {…}]")
        }
        guard identifier == AnnexCEncryptionInfo.protocolIdentifier else {
            throw VerificationError(.envelopeUnsupported, "EncryptedResponse protocol is \"\(identifier)\", expected \"dcapi\"")
        }
        let keys = data.compactMap(\.key.text)
        guard keys.count == data.count, Set(keys) == ["enc", "cipherText"], keys.count == 2 else {
            throw VerificationError(.inputMalformed, "EncryptedResponseData must hold exactly `enc` and `cipherText`")
        }
        guard let enc = parts[1]["enc"]?.bytes, enc.count == 65, enc.first == 0x04 else {
            throw VerificationError(.inputMalformed, "`enc` is not a 65-byte uncompressed P-256 point")
        }
        guard let cipherText = parts[1]["cipherText"]?.bytes, cipherText.count >= 16 else {
            throw VerificationError(.inputMalformed, "`cipherText` is not a byte string of at least one AES-GCM tag")
        }
        self.enc = enc
        self.cipherText = cipherText
    }
}
