import CryptoCore

/// Hybrid Public Key Encryption (RFC 9180) on OpenSSL 3.0 primitives.
///
/// Supported: DHKEM(P-256/P-384/P-521, HKDF-SHA2) and DHKEM(X25519, HKDF-SHA256); HKDF-SHA256/384/512;
/// AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305 and export-only; all four modes.
/// Apple "Verify with Wallet" and ISO/IEC 18013-7 Annex C use `Ciphersuite.p256SHA256AES128GCM` in base mode.
public enum HPKE {
    /// Key encapsulation mechanisms (RFC 9180 §7.1).
    public enum KEM: UInt16, Sendable, CaseIterable {
        /// DHKEM(P-256, HKDF-SHA256), identifier 0x0010.
        case p256HKDFSHA256 = 0x0010
        /// DHKEM(P-384, HKDF-SHA384), identifier 0x0011.
        case p384HKDFSHA384 = 0x0011
        /// DHKEM(P-521, HKDF-SHA512), identifier 0x0012.
        case p521HKDFSHA512 = 0x0012
        /// DHKEM(X25519, HKDF-SHA256), identifier 0x0020.
        case x25519HKDFSHA256 = 0x0020

        /// The curve of the KEM's key pairs.
        public var curve: Curve {
            switch self {
            case .p256HKDFSHA256: return .p256
            case .p384HKDFSHA384: return .p384
            case .p521HKDFSHA512: return .p521
            case .x25519HKDFSHA256: return .x25519
            }
        }

        /// The length of the KEM shared secret in bytes (Nsecret, equal to the KEM's Nh).
        public var sharedSecretByteCount: Int { digest.outputByteCount }

        /// The length of the encapsulated key in bytes (Nenc, equal to Npk): 0x04 || X || Y for the NIST curves.
        public var encapsulatedKeyByteCount: Int { curve.publicKeyByteCount }

        /// The length of a serialised public key in bytes (Npk).
        public var publicKeyByteCount: Int { curve.publicKeyByteCount }

        /// The length of a serialised private key in bytes (Nsk).
        public var privateKeyByteCount: Int { curve.coordinateByteCount }

        /// The KDF inside the DHKEM.
        var digest: DigestAlgorithm {
            switch self {
            case .p256HKDFSHA256, .x25519HKDFSHA256: return .sha256
            case .p384HKDFSHA384: return .sha384
            case .p521HKDFSHA512: return .sha512
            }
        }

        /// suite_id = "KEM" || I2OSP(kem_id, 2)
        var suiteID: [UInt8] { [0x4B, 0x45, 0x4D, UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)] }

        var labeled: LabeledKDF { LabeledKDF(digest: digest, suiteID: suiteID) }
    }

    /// Key derivation functions (RFC 9180 §7.2).
    public enum KDF: UInt16, Sendable, CaseIterable {
        /// HKDF-SHA256, identifier 0x0001.
        case hkdfSHA256 = 0x0001
        /// HKDF-SHA384, identifier 0x0002.
        case hkdfSHA384 = 0x0002
        /// HKDF-SHA512, identifier 0x0003.
        case hkdfSHA512 = 0x0003

        /// The output length of Extract in bytes (Nh).
        public var hashByteCount: Int { digest.outputByteCount }

        var digest: DigestAlgorithm {
            switch self {
            case .hkdfSHA256: return .sha256
            case .hkdfSHA384: return .sha384
            case .hkdfSHA512: return .sha512
            }
        }
    }

    /// AEAD algorithms (RFC 9180 §7.3).
    public enum AEAD: UInt16, Sendable, CaseIterable {
        /// AES-128-GCM, identifier 0x0001.
        case aes128GCM = 0x0001
        /// AES-256-GCM, identifier 0x0002.
        case aes256GCM = 0x0002
        /// ChaCha20-Poly1305, identifier 0x0003.
        case chacha20Poly1305 = 0x0003
        /// Export-only, identifier 0xFFFF: the context can export secrets but cannot seal or open.
        case exportOnly = 0xFFFF

        /// The CryptoCore cipher; nil for export-only.
        public var algorithm: AEADAlgorithm? {
            switch self {
            case .aes128GCM: return .aes128GCM
            case .aes256GCM: return .aes256GCM
            case .chacha20Poly1305: return .chacha20Poly1305
            case .exportOnly: return nil
            }
        }

        /// The AEAD key length in bytes, Nk (0 for export-only).
        public var keyByteCount: Int { algorithm?.keyByteCount ?? 0 }
        /// The AEAD nonce length in bytes, Nn (0 for export-only).
        public var nonceByteCount: Int { algorithm?.nonceByteCount ?? 0 }
        /// The AEAD tag length in bytes, Nt (0 for export-only).
        public var tagByteCount: Int { algorithm?.tagByteCount ?? 0 }
    }

    /// The HPKE modes (RFC 9180 §5).
    public enum Mode: UInt8, Sendable, CaseIterable {
        /// Base mode: no pre-shared key and no sender authentication.
        case base = 0x00
        /// PSK mode: authenticated with a pre-shared key.
        case psk = 0x01
        /// Auth mode: authenticated with the sender's static private key.
        case auth = 0x02
        /// AuthPSK mode: authenticated with both a pre-shared key and the sender's static private key.
        case authPSK = 0x03

        var usesPSK: Bool { self == .psk || self == .authPSK }
    }

    /// An HPKE ciphersuite: a KEM, a KDF and an AEAD (RFC 9180 §7).
    public struct Ciphersuite: Sendable, Hashable, CustomStringConvertible {
        /// The key encapsulation mechanism.
        public let kem: KEM
        /// The key derivation function used by the key schedule.
        public let kdf: KDF
        /// The AEAD that seals and opens messages.
        public let aead: AEAD

        /// Creates a suite from its three algorithms.
        public init(kem: KEM, kdf: KDF, aead: AEAD) {
            self.kem = kem
            self.kdf = kdf
            self.aead = aead
        }

        /// Creates a suite from its registry identifiers.
        ///
        /// Throws `HPKEError` of kind `unsupportedSuite` for an identifier outside `KEM`, `KDF` or `AEAD`.
        public init(kemID: UInt16, kdfID: UInt16, aeadID: UInt16) throws {
            guard let kem = KEM(rawValue: kemID), let kdf = KDF(rawValue: kdfID), let aead = AEAD(rawValue: aeadID) else {
                throw HPKEError(.unsupportedSuite, "unsupported HPKE suite kem 0x\(hex16(kemID)), kdf 0x\(hex16(kdfID)), aead 0x\(hex16(aeadID))")
            }
            self.init(kem: kem, kdf: kdf, aead: aead)
        }

        /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM: Apple "Verify with Wallet" (APPLE-HPKE-v1)
        /// and ISO/IEC 18013-7 Annex C.
        public static let p256SHA256AES128GCM = Ciphersuite(kem: .p256HKDFSHA256, kdf: .hkdfSHA256, aead: .aes128GCM)

        /// suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)
        var suiteID: [UInt8] {
            [0x48, 0x50, 0x4B, 0x45,
             UInt8(kem.rawValue >> 8), UInt8(kem.rawValue & 0xFF),
             UInt8(kdf.rawValue >> 8), UInt8(kdf.rawValue & 0xFF),
             UInt8(aead.rawValue >> 8), UInt8(aead.rawValue & 0xFF)]
        }

        var labeled: LabeledKDF { LabeledKDF(digest: kdf.digest, suiteID: suiteID) }

        /// The suite's three registry identifiers in hexadecimal, for messages and logs.
        public var description: String {
            "HPKE(kem 0x\(hex16(kem.rawValue)), kdf 0x\(hex16(kdf.rawValue)), aead 0x\(hex16(aead.rawValue)))"
        }
    }

    /// A pre-shared key and its identifier (psk and auth_psk modes). Both must be non-empty; the key must
    /// have at least 32 bytes (RFC 9180 §5.1.2: at least 32 bytes of entropy).
    public struct PSK: Sendable {
        /// The pre-shared key (psk).
        public var key: [UInt8]
        /// The pre-shared key's identifier (psk_id).
        public var id: [UInt8]

        /// Creates a pre-shared key; its length and non-emptiness are checked when a context is set up.
        public init(key: [UInt8], id: [UInt8]) {
            self.key = key
            self.id = id
        }
    }
}

/// Errors from HPKE. Messages never contain key material, secrets or plaintext.
public struct HPKEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The category of an HPKE failure.
    public enum Kind: String, Sendable {
        /// `enc` has the wrong length, is not on the curve, or yields an all-zero X25519 secret.
        case invalidEncapsulatedKey
        /// AEAD authentication failed (wrong key, enc, info, aad, sequence number, or tampered ciphertext).
        case decryptionFailed
        /// The sequence number reached its limit.
        case messageLimitReached
        /// Identifiers outside the supported registry values.
        case unsupportedSuite
        /// PSK and PSK id not both present, or the PSK is shorter than 32 bytes.
        case invalidPSK
        /// seal/open on an export-only context.
        case exportOnly
        /// A recipient/sender key on the wrong curve or a key-agreement failure caused by it.
        case invalidKey
        /// An out-of-range length (e.g. an export longer than 255 * Nh).
        case invalidInput
        /// OpenSSL reported an unexpected failure.
        case internalFailure
    }

    /// What went wrong.
    public let kind: Kind
    /// A human-readable detail; it never contains key material, secrets or plaintext.
    public let message: String

    /// Creates an error of `kind` with a detail `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and message, prefixed with "HPKE".
    public var description: String { "HPKE \(kind.rawValue): \(message)" }
}

func hex16(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
