import CryptoCore
import KitCertificates

/// Deterministic bytes from a numeric seed and a label: HKDF-SHA-256(ikm = "MdocTesting v1" ‖ seed (8 bytes,
/// big-endian), info = label). Every key, salt and serial number of a simulation comes from here, so one
/// seed gives the same keys and structures on every run (ECDSA signatures excepted: OpenSSL randomizes them).
public struct SeedMaterial: Sendable, Equatable {
    /// The numeric seed.
    public let seed: UInt64

    /// Creates the material for `seed`.
    public init(_ seed: UInt64) {
        self.seed = seed
    }

    /// Deterministic bytes for `label`: `count` bytes of HKDF-SHA-256 output.
    ///
    /// `count` must be 1…8160; any other value traps.
    public func bytes(_ label: String, count: Int) -> [UInt8] {
        var ikm = Array("MdocTesting v1".utf8)
        for shift in stride(from: 56, through: 0, by: -8) {
            ikm.append(UInt8(truncatingIfNeeded: seed >> UInt64(shift)))
        }
        // HKDF-SHA-256 output is at most 255 × 32 bytes; callers ask for keys, salts and serials (≤ 64 bytes).
        precondition(count > 0 && count <= 255 * 32, "SeedMaterial.bytes: count must be 1…8160")
        guard let out = try? HKDF.derive(.sha256, ikm: ikm, salt: [UInt8](), info: Array(label.utf8), length: count) else {
            fatalError("HKDF-SHA-256 failed for a valid length")
        }
        return out
    }

    /// A private key on `curve`, derived from this seed and `label`; derived once per process and then shared.
    public func key(_ label: String, curve: Curve) throws -> PrivateKey {
        try Self.keys.value(for: KeyID(seed: seed, label: label, curve: curve)) {
            try PrivateKey.derived(fromSeed: bytes("key:" + label, count: 32), curve: curve)
        }
    }

    private struct KeyID: Hashable, Sendable {
        let seed: UInt64
        let label: String
        let curve: Curve
    }

    private static let keys = ProcessCache<KeyID, PrivateKey>()

    /// A positive 16-byte certificate serial number (top byte 0x40…0x7f, like CertificateBuilder's random ones).
    public func serialNumber(_ label: String) -> [UInt8] {
        var serial = bytes("serial:" + label, count: 16)
        serial[0] = (serial[0] & 0x7f) | 0x40
        return serial
    }
}

/// Values built once per key per process, for callers on any thread: the first caller of a key builds its value
/// while later callers of that key wait; callers of other keys do not. A build that throws is not kept. CryptoCore's
/// `Locked` (a pthread mutex), as elsewhere, so ThreadSanitizer sees the hand-over.
final class ProcessCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Entry: Sendable {
        let value = Locked<Value?>(nil)
    }

    private let entries = Locked<[Key: Entry]>([:])

    func value(for key: Key, build: () throws -> Value) throws -> Value {
        let entry = entries.withLockedValue { entries in
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return try entry.value.withLockedValue { value in
            if let value { return value }
            let built = try build()
            value = built
            return built
        }
    }
}
