import COpenSSL
import COpenSSLShims

/// A private key held as an OpenSSL EVP_PKEY.
///
/// Its material never appears in descriptions or errors.
public final class PrivateKey: @unchecked Sendable, CustomStringConvertible {
    package let pkey: OpaquePointer
    /// The curve or key type of the key.
    public let curve: Curve
    /// The public key encoding (`PublicKey.uncompressedPoint` form), computed once at creation:
    /// HPKE needs it (pkRm) for every decapsulation.
    package let publicKeyBytes: [UInt8]

    /// Takes ownership of `pkey`. Returns nil, and frees `pkey`, when the key type is unsupported
    /// or it has no usable public part.
    package init?(takingOwnershipOf pkey: OpaquePointer) {
        guard let curve = Curve.of(pkey), PublicKey.hasValidPoint(pkey, curve) else {
            EVP_PKEY_free(pkey)
            clearOpenSSLErrors()
            return nil
        }
        self.pkey = pkey
        self.curve = curve
        self.publicKeyBytes = PublicKey.encodedPoint(pkey, curve)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A redacted description naming only the curve, e.g. "PrivateKey(P-256, redacted)".
    public var description: String { "PrivateKey(\(curve.rawValue), redacted)" }

    // MARK: - Creation

    /// Generates a fresh random key on `curve`.
    ///
    /// Throws `CryptoError` of kind `internalFailure` when OpenSSL cannot generate the key.
    public static func generate(_ curve: Curve) throws -> PrivateKey {
        let pkey: OpaquePointer? = curve.isEC
            ? cshims_generate_key("EC", curve.opensslName)
            : cshims_generate_key(curve.opensslName, nil)
        guard let pkey, let key = PrivateKey(takingOwnershipOf: pkey) else {
            clearOpenSSLErrors()
            throw CryptoError(.internalFailure, "key generation failed for \(curve.rawValue)")
        }
        return key
    }

    /// Loads a PEM private key: SEC1 ("EC PRIVATE KEY") or PKCS#8 ("PRIVATE KEY"), unencrypted.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when no private key can be read, `invalidKey` for an
    /// unsupported key type.
    public convenience init(pemEncoded pem: String) throws {
        guard let pkey = OpenSSLCoding.readPEM(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw CryptoError(.invalidInput, "not a PEM private key")
        }
        try self.init(importing: pkey)
    }

    /// Loads a DER private key: PKCS#8 PrivateKeyInfo or SEC1 ECPrivateKey.
    ///
    /// The whole input must be consumed. Throws `CryptoError` of kind `invalidInput` for malformed DER or trailing
    /// bytes, `invalidKey` for an unsupported key type.
    public convenience init(derEncoded der: [UInt8]) throws {
        let decoded = OpenSSLCoding.decodeWhole(der, { d2i_AutoPrivateKey(nil, $0, $1) }, free: { EVP_PKEY_free($0) })
        clearOpenSSLErrors()
        guard case .success(let pkey) = decoded else { throw CryptoError(.invalidInput, "not a DER private key (PKCS#8 or SEC1)") }
        try self.init(importing: pkey)
    }

    /// Creates a private key from its raw scalar.
    ///
    /// For the EC curves this is the big-endian scalar d (exactly `curve.coordinateByteCount` bytes, 0 < d < n),
    /// and the public point d·G is computed and stored; for X25519 and Ed25519 it is the raw 32-byte private key.
    /// Throws `CryptoError` of kind `invalidKey` for a wrong length or an out-of-range scalar.
    public convenience init(curve: Curve, rawScalar: [UInt8]) throws {
        guard let pkey = try rawScalar.withUnsafeBytes({ try PrivateKey.importScalar(curve: curve, $0) }) else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) private scalar is zero or not below the group order")
        }
        try self.init(importing: pkey)
    }

    /// Like `init(curve:rawScalar:)` but returns nil (instead of throwing) when a NIST scalar is out of
    /// range, for rejection-sampling loops (HPKE DeriveKeyPair, `derived(fromSeed:curve:)`).
    package static func fromScalarIfInRange(curve: Curve, _ scalar: UnsafeRawBufferPointer) throws -> PrivateKey? {
        guard let pkey = try importScalar(curve: curve, scalar) else { return nil }
        return try PrivateKey(importing: pkey)
    }

    /// Returns nil when a NIST scalar is out of range; throws for wrong lengths or OpenSSL failures.
    private static func importScalar(curve: Curve, _ scalar: UnsafeRawBufferPointer) throws -> OpaquePointer? {
        guard scalar.count == curve.coordinateByteCount else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) private key must be \(curve.coordinateByteCount) bytes, got \(scalar.count)")
        }
        if curve.isEC {
            var pkey: OpaquePointer? = nil
            let result = cshims_ec_keypair_from_scalar(curve.opensslName, scalar.nonNullBase, scalar.count, &pkey)
            clearOpenSSLErrors()
            switch result {
            case 1:
                guard let pkey else { throw CryptoError(.internalFailure, "EC key import failed") }
                return pkey
            case -1:
                return nil
            default:
                throw CryptoError(.internalFailure, "\(curve.rawValue) private key import failed")
            }
        }
        guard let pkey = EVP_PKEY_new_raw_private_key_ex(nil, curve.opensslName, nil, scalar.nonNullBase, scalar.count) else {
            clearOpenSSLErrors()
            throw CryptoError(.invalidKey, "\(curve.rawValue) private key rejected")
        }
        return pkey
    }

    private convenience init(importing pkey: OpaquePointer) throws {
        _ = try PublicKey.importedCurve(pkey, of: "private", invalidPoint: "private key has no valid public point")
        self.init(takingOwnershipOf: pkey)!
    }

    /// Derives a deterministic key from `seed`, for reproducible test PKIs and fixtures.
    ///
    /// The seed is the whole secret: use at least 32 random bytes for anything real.
    ///
    /// PRK = HKDF-Extract(SHA-512, salt "WalletVerifier PrivateKey.derived v1", seed); for counter 0, 1, …:
    /// candidate = HKDF-Expand(PRK, curve name || counter, Nsk), P-521 candidates masked to 521 bits;
    /// the first candidate with 0 < d < n is the scalar (X25519/Ed25519 take the first candidate).
    public static func derived(fromSeed seed: [UInt8], curve: Curve) throws -> PrivateKey {
        let salt = Array("WalletVerifier PrivateKey.derived v1".utf8)
        var prk = HKDF.extract(.sha512, salt: salt, ikm: seed)
        defer { prk.zeroize() }
        for counter in 0...255 {
            var info = Array(curve.rawValue.utf8)
            info.append(UInt8(counter))
            var candidate = try HKDF.expand(.sha512, prk: prk, info: info, length: curve.coordinateByteCount)
            defer { candidate.zeroize() }
            if curve == .p521 { candidate[0] &= 0x01 }
            if let key = try candidate.withUnsafeBytes({ try fromScalarIfInRange(curve: curve, $0) }) {
                return key
            }
        }
        throw CryptoError(.internalFailure, "no valid \(curve.rawValue) scalar after 256 candidates")
    }

    // MARK: - Export

    /// The matching public key, a separate EVP_PKEY holding only the public part.
    public var publicKey: PublicKey {
        do {
            return try PublicKey(curve: curve, uncompressedPoint: publicKeyBytes)
        } catch {
            fatalError("OpenSSL rejected the public point of a private key it holds")
        }
    }

    /// Returns the key as an unencrypted PKCS#8 "PRIVATE KEY" PEM block.
    public func pkcs8PEM() -> String {
        guard let pem = try? pemString(sec1: false) else {
            fatalError("OpenSSL could not encode a \(curve.rawValue) private key as PKCS#8")
        }
        return pem
    }

    /// Returns the key as a SEC1 "EC PRIVATE KEY" PEM block.
    ///
    /// Only EC keys have a SEC1 form: X25519 and Ed25519 keys throw `CryptoError` of kind `unsupportedAlgorithm`.
    public func sec1PEM() throws -> String {
        guard curve.isEC else {
            throw CryptoError(.unsupportedAlgorithm, "SEC1 encoding exists only for EC keys, not \(curve.rawValue)")
        }
        return try pemString(sec1: true)
    }

    /// Returns the key as an unencrypted PKCS#8 PrivateKeyInfo in DER.
    public func pkcs8DER() -> [UInt8] {
        withExtendedLifetime(self) {
            var der: UnsafeMutablePointer<UInt8>? = nil
            let length = cshims_private_key_pkcs8_der(pkey, &der)
            guard length > 0, let der else {
                fatalError("OpenSSL could not encode a \(curve.rawValue) private key as PKCS#8")
            }
            defer { cshims_clear_free(der, length) }
            return Array(UnsafeBufferPointer(start: der, count: length))
        }
    }

    private func pemString(sec1: Bool) throws -> String {
        try withExtendedLifetime(self) {
            guard let cString = cshims_private_key_pem(pkey, sec1 ? 1 : 0) else {
                clearOpenSSLErrors()
                throw CryptoError(.internalFailure, "PEM encoding of a \(curve.rawValue) private key failed")
            }
            defer { cshims_clear_free_string(cString) }
            return String(cString: cString)
        }
    }

    /// The raw private scalar (NIST: big-endian, `coordinateByteCount` bytes) or raw X25519/Ed25519 key.
    /// For tests (HPKE DeriveKeyPair vectors); callers zeroize the result.
    package func rawPrivateBytes() throws -> [UInt8] {
        let count = curve.coordinateByteCount
        return try withExtendedLifetime(self) {
            try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                var length = count
                let ok = curve.isEC
                    ? cshims_ec_private_scalar(pkey, buffer.baseAddress, count) == 1
                    : EVP_PKEY_get_raw_private_key(pkey, buffer.baseAddress, &length) == 1 && length == count
                guard ok else {
                    clearOpenSSLErrors()
                    throw CryptoError(.internalFailure, "private key export failed")
                }
                initialized = count
            }
        }
    }

    // MARK: - Key agreement

    /// Computes the ECDH shared secret with `peer` (the x-coordinate of d·Q, `coordinateByteCount` bytes) or the X25519
    /// one.
    ///
    /// Ed25519 keys cannot be used for key agreement (`invalidKey`). The peer must be on the same curve (else
    /// `invalidKey`). Peer keys are validated when they are created, so OpenSSL is told not to re-validate
    /// (EVP_PKEY_derive_set_peer_ex with validate = 0: the check is a whole extra scalar multiplication). An all-zero
    /// X25519 output (low-order peer point, RFC 7748 §6.1 / RFC 9180 §7.1.4) throws `invalidKey`. Callers should
    /// zeroize the result.
    public func sharedSecret(with peer: PublicKey) throws -> [UInt8] {
        guard curve != .ed25519 else {
            throw CryptoError(.invalidKey, "Ed25519 keys cannot be used for key agreement")
        }
        guard peer.curve == curve else {
            throw CryptoError(.invalidKey, "peer key is \(peer.curve.rawValue), expected \(curve.rawValue)")
        }
        let count = curve.coordinateByteCount
        return try withExtendedLifetime(self) {
            try withExtendedLifetime(peer) {
                guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else {
                    clearOpenSSLErrors()
                    throw CryptoError(.internalFailure, "EVP_PKEY_CTX_new_from_pkey failed")
                }
                defer { EVP_PKEY_CTX_free(ctx) }
                guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer_ex(ctx, peer.pkey, 0) == 1 else {
                    clearOpenSSLErrors()
                    throw CryptoError(.invalidKey, "\(curve.rawValue) key agreement setup failed")
                }
                var secret = [UInt8](repeating: 0, count: count)
                var length = count
                let ok = secret.withUnsafeMutableBufferPointer { EVP_PKEY_derive(ctx, $0.baseAddress, &length) }
                clearOpenSSLErrors()
                guard ok == 1, length == count else {
                    secret.zeroize()
                    if curve == .x25519 {
                        // OpenSSL refuses to return an all-zero X25519 result.
                        throw CryptoError(.invalidKey, "X25519 shared secret is all zero (low-order public key)")
                    }
                    throw CryptoError(.internalFailure, "\(curve.rawValue) key agreement failed")
                }
                var accumulator: UInt8 = 0
                for byte in secret { accumulator |= byte }
                guard accumulator != 0 else {
                    throw CryptoError(.invalidKey, "\(curve.rawValue) shared secret is all zero (low-order public key)")
                }
                return secret
            }
        }
    }

    // MARK: - Signatures

    /// Signs `message`: ECDSA with `digest`, returned as raw r || s, or Ed25519.
    ///
    /// ECDSA r and s are each left-padded to `coordinateByteCount` bytes; an Ed25519 signature is 64 bytes and
    /// `digest` is ignored. X25519 keys cannot sign (`CryptoError` of kind `unsupportedAlgorithm`); other throws
    /// are `internalFailure`.
    public func signature(for message: some CryptoBytes, digest: DigestAlgorithm) throws -> [UInt8] {
        try message.withCryptoBytes { message in
            try withExtendedLifetime(self) { try sign(message, digest: digest) }
        }
    }

    private func sign(_ message: UnsafeRawBufferPointer, digest: DigestAlgorithm) throws -> [UInt8] {
        defer { clearOpenSSLErrors() }
        switch curve {
        case .p256, .p384, .p521, .brainpoolP256r1, .brainpoolP320r1, .brainpoolP384r1, .brainpoolP512r1:
            let hash = Digest.hash(digest, message)
            guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else {
                throw CryptoError(.internalFailure, "EVP_PKEY_CTX_new_from_pkey failed")
            }
            defer { EVP_PKEY_CTX_free(ctx) }
            let half = curve.coordinateByteCount
            var derCapacity = 0
            guard EVP_PKEY_sign_init(ctx) == 1, EVP_PKEY_CTX_set_signature_md(ctx, digest.md) == 1,
                  EVP_PKEY_sign(ctx, nil, &derCapacity, hash, hash.count) == 1, derCapacity > 0
            else { throw CryptoError(.internalFailure, "ECDSA signing setup failed") }
            var der = [UInt8](repeating: 0, count: derCapacity)
            var derLength = derCapacity
            guard EVP_PKEY_sign(ctx, &der, &derLength, hash, hash.count) == 1 else {
                throw CryptoError(.internalFailure, "ECDSA signing failed")
            }
            return try [UInt8](unsafeUninitializedCapacity: 2 * half) { raw, initialized in
                guard cshims_ecdsa_der_to_raw(der, derLength, raw.baseAddress, half) == 1 else {
                    throw CryptoError(.internalFailure, "ECDSA signature conversion failed")
                }
                initialized = 2 * half
            }
        case .ed25519:
            guard let mdctx = EVP_MD_CTX_new() else { throw CryptoError(.internalFailure, "EVP_MD_CTX_new failed") }
            defer { EVP_MD_CTX_free(mdctx) }
            var length = 64
            var signature = [UInt8](repeating: 0, count: 64)
            guard EVP_DigestSignInit_ex(mdctx, nil, nil, nil, nil, pkey, nil) == 1,
                  EVP_DigestSign(mdctx, &signature, &length, message.nonNullBase, message.count) == 1,
                  length == 64
            else { throw CryptoError(.internalFailure, "Ed25519 signing failed") }
            return signature
        case .x25519:
            throw CryptoError(.unsupportedAlgorithm, "X25519 keys cannot sign")
        }
    }
}
