import CryptoCore
import MdocModel

/// The merchant's decryption keys, indexed by pkRHash (SHA-256 of the 65-byte uncompressed point), so
/// several keys can be active during rotation.
public struct RecipientKeyRing: Sendable {
    /// pkRHash of Apple's published test key, used by the iOS Simulator and Apple's sample response.
    public static let appleTestKeyHash: [UInt8] = [
        0xb2, 0xc0, 0x0f, 0x06, 0xb2, 0xdf, 0x64, 0x56, 0x91, 0x17, 0x4f, 0x13, 0x31, 0xad, 0xe3, 0x51,
        0x41, 0xf1, 0x7e, 0x19, 0xb3, 0x02, 0x1d, 0x07, 0x56, 0x0b, 0x4a, 0x71, 0xfc, 0x61, 0x81, 0x8c,
    ]

    /// A decryption key with its pkRHash.
    public struct Entry: Sendable {
        /// The P-256 private key.
        public let key: PrivateKey
        /// SHA-256 of the key's 65-byte uncompressed public point.
        public let pkRHash: [UInt8]
    }

    /// The keys, in the order given.
    public let entries: [Entry]

    /// A ring with no key: every Apple envelope is `envelope.recipient_mismatch`.
    public static let empty = RecipientKeyRing(entries: [])

    private init(entries: [Entry]) { self.entries = entries }

    /// Creates a key ring from `keys`.
    ///
    /// Throws `envelope.unsupported` for a key that is not P-256 and, unless `allowTestKey`, `envelope.test_key` for
    /// Apple's published test key.
    public init(keys: [PrivateKey], allowTestKey: Bool) throws(VerificationError) {
        var entries: [Entry] = []
        for key in keys {
            guard key.curve == .p256 else {
                throw VerificationError(.envelopeUnsupported, "decryption key is \(key.curve.rawValue); APPLE-HPKE-v1 needs P-256")
            }
            let hash = Self.pkRHash(of: key.publicKey)
            if hash == Self.appleTestKeyHash && !allowTestKey {
                throw VerificationError(.envelopeTestKey, "refusing to load Apple's published test key outside test mode")
            }
            entries.append(Entry(key: key, pkRHash: hash))
        }
        self.entries = entries
    }

    /// The pkRHash of `key`: SHA-256 of its 65-byte uncompressed point.
    public static func pkRHash(of key: PublicKey) -> [UInt8] {
        Digest.hash(.sha256, key.uncompressedPoint)
    }

    /// The key whose pkRHash equals `hash` (constant-time comparison per entry).
    func key(for hash: ArraySlice<UInt8>) -> Entry? {
        entries.first { constantTimeEquals($0.pkRHash, hash) }
    }
}
