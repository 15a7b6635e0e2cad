import CBOR
import CryptoCore
import HPKE
import Mdoc
import MdocModel
import Verifier

/// Apple "Verify with Wallet" in-app response (`PKIdentityDocument.encryptedData`): `{"identity": DeviceResponse}`
/// sealed with HPKE base mode DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM to the merchant key,
/// info = the Apple session transcript, empty aad, in
/// `{"algorithm": "APPLE-HPKE-v1", "params": {"mode": 0, "pkEm", "pkRHash", "infoHash"}, "data"}`.
public struct AppleEnvelopeBuilder: Sendable {
    /// The envelope's `algorithm` value: `APPLE-HPKE-v1` unless a fault test changes it.
    public var algorithm = "APPLE-HPKE-v1"
    /// The value written to `params.mode`: 0 (base mode) unless a fault test changes it.
    ///
    /// Sealing always uses HPKE base mode; this only changes what the envelope claims.
    public var mode: UInt64 = 0
    /// Replaces SHA-256(transcript) in `params.infoHash` (fault tests).
    public var infoHash: [UInt8]?
    /// Flip one bit of the ciphertext after sealing (fault tests).
    public var corruptCiphertext = false
    /// Unknown keys added to the envelope, to `params` and to the plaintext map.
    public var extraEntries: [(CBORValue, CBORValue)] = []

    /// Creates a builder for a well-formed envelope, without faults or extra entries.
    public init() {}

    /// The Apple in-app transcript for a merchant key:
    /// `[null, null, ["AppleIdentityPresentment_1.0", nonce, merchantID, teamID, SHA-256(04‖X‖Y)]]`.
    public static func transcript(nonce: [UInt8], merchantID: String, teamID: String, merchantKey: PublicKey) -> SessionTranscript {
        .appleInApp(nonce: nonce, merchantID: merchantID, teamID: teamID, recipientKeyHash: RecipientKeyRing.pkRHash(of: merchantKey))
    }

    /// Seals `deviceResponse` (its CBOR bytes) to `merchantKey` under `transcript`.
    public func seal(deviceResponse: [UInt8], merchantKey: PublicKey, transcript: SessionTranscript) throws -> [UInt8] {
        let plaintext = CBOREncoder.encode(.map([(.text("identity"), .encoded(deviceResponse))] + extraEntries))
        return try seal(plaintext: plaintext, merchantKey: merchantKey, transcript: transcript)
    }

    /// Seals any plaintext (normally `{"identity": DeviceResponse}`) to `merchantKey` under `transcript`: lets a test
    /// or a fuzzer put arbitrary bytes behind a valid HPKE envelope.
    public func seal(plaintext: [UInt8], merchantKey: PublicKey, transcript: SessionTranscript) throws -> [UInt8] {
        guard merchantKey.curve == .p256 else { throw SimulationError.unsupported("APPLE-HPKE-v1 needs a P-256 merchant key") }
        let sealed = try HPKE.seal(plaintext, to: merchantKey, transcript: transcript, corruptingCiphertext: corruptCiphertext)
        let params: CBORValue = .map([
            (.text("mode"), .unsigned(mode)),
            (.text("pkEm"), .bytes(sealed.encapsulatedKey)),
            (.text("pkRHash"), .bytes(RecipientKeyRing.pkRHash(of: merchantKey))),
            (.text("infoHash"), .bytes(infoHash ?? Digest.hash(.sha256, transcript.bytes))),
        ] + extraEntries)
        return CBOREncoder.encode(.map([
            (.text("algorithm"), .text(algorithm)),
            (.text("params"), params),
            (.text("data"), .bytes(sealed.ciphertext)),
        ] + extraEntries))
    }
}
