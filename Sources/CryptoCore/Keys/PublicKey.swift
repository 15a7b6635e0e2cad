import COpenSSL
import COpenSSLShims

/// A public key held as an OpenSSL EVP_PKEY.
///
/// Immutable after creation; safe to share across tasks. Every initialiser validates the key: EC points
/// (NIST and brainpool) must be uncompressed-encodable, on the curve and not the point at infinity;
/// X25519/Ed25519 keys must be 32 bytes.
public final class PublicKey: @unchecked Sendable, CustomStringConvertible {
    /// The owned EVP_PKEY; freed in deinit. Callers that pass it to OpenSSL keep `self` alive
    /// (`withExtendedLifetime`) for the duration of the call.
    package let pkey: OpaquePointer
    /// The curve or key type of the key.
    public let curve: Curve

    /// Takes ownership of `pkey` (its reference is released in deinit).
    /// Returns nil, and frees `pkey`, when the key type is unsupported or an EC key is the point at infinity.
    package init?(takingOwnershipOf pkey: OpaquePointer) {
        guard let curve = Curve.of(pkey), PublicKey.hasValidPoint(pkey, curve) else {
            EVP_PKEY_free(pkey)
            clearOpenSSLErrors()
            return nil
        }
        self.pkey = pkey
        self.curve = curve
    }

    /// Takes ownership of an already validated key of a known curve.
    init(validated pkey: OpaquePointer, curve: Curve) {
        self.pkey = pkey
        self.curve = curve
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A short description naming only the curve, e.g. "PublicKey(P-256)".
    public var description: String { "PublicKey(\(curve.rawValue))" }

    // MARK: - Import

    /// Creates an EC2 (COSE) public key from its affine coordinates, each exactly `curve.coordinateByteCount` bytes.
    ///
    /// Throws `CryptoError` of kind `invalidKey` for X25519/Ed25519, wrong lengths, or a point that is not on
    /// the curve.
    public convenience init(curve: Curve, x: [UInt8], y: [UInt8]) throws {
        guard curve.isEC else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) keys have no x/y coordinates")
        }
        let n = curve.coordinateByteCount
        guard x.count == n, y.count == n else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) coordinates must be \(n) bytes each, got \(x.count) and \(y.count)")
        }
        var point = [UInt8]()
        point.reserveCapacity(1 + 2 * n)
        point.append(0x04)
        point.append(contentsOf: x)
        point.append(contentsOf: y)
        try self.init(curve: curve, uncompressedPoint: point)
    }

    /// Creates a public key from its fixed-length encoding.
    ///
    /// The encoding is 0x04 || X || Y for the EC curves (SEC1 uncompressed, as used by HPKE and Apple's pkRHash)
    /// and the raw 32 bytes for X25519 and Ed25519. Throws `CryptoError` of kind `invalidKey` for a wrong length,
    /// a compressed or all-zero point, or a point that is not on the curve.
    public convenience init(curve: Curve, uncompressedPoint point: some CryptoBytes) throws {
        let pkey = try point.withCryptoBytes { try PublicKey.importPoint(curve: curve, $0) }
        self.init(validated: pkey, curve: curve)
    }

    /// Creates a public key from its raw encoding; the same as `init(curve:uncompressedPoint:)`, under the name used
    /// for X25519/Ed25519 keys.
    public convenience init(curve: Curve, rawRepresentation: some CryptoBytes) throws {
        try self.init(curve: curve, uncompressedPoint: rawRepresentation)
    }

    /// Creates a public key from a DER SubjectPublicKeyInfo.
    ///
    /// The whole input must be consumed. Throws `CryptoError` of kind `invalidInput` for malformed DER or trailing
    /// bytes, `invalidKey` for an unsupported key type or an invalid point.
    public convenience init(spkiDER der: [UInt8]) throws {
        let decoded = OpenSSLCoding.decodeWhole(der, { d2i_PUBKEY(nil, $0, $1) }, free: { EVP_PKEY_free($0) })
        clearOpenSSLErrors()
        guard case .success(let pkey) = decoded else { throw CryptoError(.invalidInput, "not a DER SubjectPublicKeyInfo") }
        try self.init(importing: pkey)
    }

    /// Creates a public key from a PEM "PUBLIC KEY" (SubjectPublicKeyInfo) block.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when no public key can be read, `invalidKey` for an
    /// unsupported key type or an invalid point.
    public convenience init(pemEncoded pem: String) throws {
        guard let pkey = OpenSSLCoding.readPEM(pem, { PEM_read_bio_PUBKEY($0, nil, nil, nil) }) else {
            throw CryptoError(.invalidInput, "not a PEM public key")
        }
        try self.init(importing: pkey)
    }

    private convenience init(importing pkey: OpaquePointer) throws {
        let curve = try PublicKey.importedCurve(pkey, of: "public", invalidPoint: "public key is the point at infinity or invalid")
        self.init(validated: pkey, curve: curve)
    }

    /// The curve of a decoded `kind` key ("public", "private") whose point is valid; otherwise frees `pkey` and throws
    /// `invalidKey`, the message ending in `invalidPoint` for a bad point.
    static func importedCurve(_ pkey: OpaquePointer, of kind: String, invalidPoint: String) throws -> Curve {
        guard let curve = Curve.of(pkey) else {
            EVP_PKEY_free(pkey)
            throw CryptoError(.invalidKey, "unsupported \(kind) key type (expected P-256/384/521, X25519 or Ed25519)")
        }
        guard PublicKey.hasValidPoint(pkey, curve) else {
            EVP_PKEY_free(pkey)
            clearOpenSSLErrors()
            throw CryptoError(.invalidKey, "\(curve.rawValue) \(invalidPoint)")
        }
        return curve
    }

    /// Validates and imports a fixed-length public key encoding. The only validation on the hot path:
    /// length and format here, on-curve (and coordinate range) inside OpenSSL's point decoding.
    /// NIST keys are built from a shared per-curve parameter template, not through EVP_PKEY_fromdata, which
    /// constructs the group from its name every time (docs/performance.md).
    static func importPoint(curve: Curve, _ point: UnsafeRawBufferPointer) throws -> OpaquePointer {
        guard point.count == curve.publicKeyByteCount else {
            throw CryptoError(.invalidKey, "\(curve.rawValue) public key must be \(curve.publicKeyByteCount) bytes, got \(point.count)")
        }
        if curve.isEC {
            guard point[0] == 0x04 else {
                throw CryptoError(.invalidKey, "\(curve.rawValue) public key is not an uncompressed point (0x04 prefix)")
            }
            // The identity has no uncompressed encoding; an all-zero X||Y is rejected explicitly for a
            // clearer error (it is not on any of the curves either).
            var accumulator: UInt8 = 0
            for byte in point.dropFirst() { accumulator |= byte }
            guard accumulator != 0 else {
                throw CryptoError(.invalidKey, "\(curve.rawValue) public key is all zero")
            }
            guard let pkey = cshims_ec_public_key_from_template(curve.parameterTemplate, point.nonNullBase, point.count) else {
                clearOpenSSLErrors()
                throw CryptoError(.invalidKey, "\(curve.rawValue) public key is not a point on the curve")
            }
            return pkey
        }
        guard curve == .x25519 || curve == .ed25519 else {
            throw CryptoError(.invalidKey, "unsupported curve \(curve.rawValue)")
        }
        guard let pkey = EVP_PKEY_new_raw_public_key_ex(nil, curve.opensslName, nil, point.nonNullBase, point.count) else {
            clearOpenSSLErrors()
            throw CryptoError(.invalidKey, "\(curve.rawValue) public key rejected")
        }
        return pkey
    }

    /// For NIST keys that did not come through `importPoint`: the point must have affine coordinates
    /// (i.e. is not the point at infinity). OpenSSL's decoders already checked it is on the curve.
    static func hasValidPoint(_ pkey: OpaquePointer, _ curve: Curve) -> Bool {
        guard curve.isEC else { return true }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: curve.publicKeyByteCount) { buffer in
            cshims_ec_uncompressed_point(pkey, buffer.baseAddress, curve.coordinateByteCount) == 1
        }
    }

    // MARK: - Export

    /// The fixed-length encoding of the key.
    ///
    /// 0x04 || X || Y for the EC curves (whatever point format the key was loaded with), the raw
    /// 32 bytes for X25519/Ed25519.
    public var uncompressedPoint: [UInt8] {
        withExtendedLifetime(self) {
            PublicKey.encodedPoint(pkey, curve)
        }
    }

    /// The raw encoding of the key; the same as `uncompressedPoint`, under the name used for X25519/Ed25519 keys.
    public var rawRepresentation: [UInt8] { uncompressedPoint }

    static func encodedPoint(_ pkey: OpaquePointer, _ curve: Curve) -> [UInt8] {
        let count = curve.publicKeyByteCount
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if curve.isEC {
                guard cshims_ec_uncompressed_point(pkey, buffer.baseAddress, curve.coordinateByteCount) == 1 else {
                    // Unreachable: every initialiser rejects keys without affine coordinates.
                    fatalError("OpenSSL could not encode a validated \(curve.rawValue) public key")
                }
            } else {
                var length = count
                guard EVP_PKEY_get_raw_public_key(pkey, buffer.baseAddress, &length) == 1, length == count else {
                    fatalError("OpenSSL could not encode a \(curve.rawValue) public key")
                }
            }
            initialized = count
        }
    }

    /// The key as a DER SubjectPublicKeyInfo.
    public var spkiDER: [UInt8] {
        withExtendedLifetime(self) {
            guard let der = OpenSSLCoding.encoded({ i2d_PUBKEY(pkey, $0) }) else {
                fatalError("OpenSSL could not encode a public key it holds")
            }
            return der
        }
    }

    /// The key as a PEM "PUBLIC KEY" block.
    public var pemEncoded: String {
        PEM.encode(label: "PUBLIC KEY", der: spkiDER)
    }

    // MARK: - Signatures

    /// Verifies a raw signature over `message`.
    ///
    /// - EC curves: ECDSA with `digest` over `message`; `signature` is r || s, exactly
    ///   `2 * curve.coordinateByteCount` bytes (COSE / JOSE form), otherwise false.
    /// - Ed25519: PureEdDSA, 64-byte signature; `digest` is ignored.
    /// - X25519: always false.
    public func isValidSignature(_ signature: some CryptoBytes, for message: some CryptoBytes,
                                 digest: DigestAlgorithm) -> Bool {
        signature.withCryptoBytes { signature in
            message.withCryptoBytes { message in
                withExtendedLifetime(self) {
                    verify(signature: signature, message: message, digest: digest)
                }
            }
        }
    }

    private func verify(signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer,
                        digest: DigestAlgorithm) -> Bool {
        defer { clearOpenSSLErrors() }
        switch curve {
        case .p256, .p384, .p521, .brainpoolP256r1, .brainpoolP320r1, .brainpoolP384r1, .brainpoolP512r1:
            let half = curve.coordinateByteCount
            guard signature.count == 2 * half else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * half + 16) { der in
                let derLength = cshims_ecdsa_raw_to_der(signature.nonNullBase, half, der.baseAddress, der.count)
                guard derLength > 0 else { return false }
                let hash = Digest.hash(digest, message)
                guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else { return false }
                defer { EVP_PKEY_CTX_free(ctx) }
                guard EVP_PKEY_verify_init(ctx) == 1,
                      EVP_PKEY_CTX_set_signature_md(ctx, digest.md) == 1
                else { return false }
                return hash.withUnsafeBufferPointer { hash in
                    EVP_PKEY_verify(ctx, der.baseAddress, derLength, hash.baseAddress, hash.count) == 1
                }
            }
        case .ed25519:
            guard signature.count == 64 else { return false }
            guard let mdctx = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(mdctx) }
            guard EVP_DigestVerifyInit_ex(mdctx, nil, nil, nil, nil, pkey, nil) == 1 else { return false }
            return EVP_DigestVerify(mdctx, signature.nonNullBase, signature.count,
                                    message.nonNullBase, message.count) == 1
        case .x25519:
            return false
        }
    }
}

extension PublicKey: Equatable {
    /// Keys are equal when they are on the same curve and have the same public point.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.curve == rhs.curve && lhs.uncompressedPoint == rhs.uncompressedPoint
    }
}
