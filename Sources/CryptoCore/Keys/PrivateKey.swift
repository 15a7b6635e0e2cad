import COpenSSL
import CShims

/// A private key held as an OpenSSL EVP_PKEY. Its material never appears in descriptions or errors.
public final class PrivateKey: @unchecked Sendable, CustomStringConvertible {
    package let pkey: OpaquePointer
    public let curve: Curve

    /// Takes ownership of `pkey`. Returns nil, and frees `pkey`, when the key type is unsupported.
    package init?(takingOwnershipOf pkey: OpaquePointer) {
        guard let curve = Curve.of(pkey) else {
            EVP_PKEY_free(pkey)
            return nil
        }
        self.pkey = pkey
        self.curve = curve
    }

    deinit { EVP_PKEY_free(pkey) }

    /// A fresh random key on `curve`.
    public static func generate(_ curve: Curve) throws -> PrivateKey {
        let pkey: OpaquePointer? = curve.isNIST
            ? cshims_generate_key("EC", curve.opensslName)
            : cshims_generate_key(curve.opensslName, nil)
        guard let pkey, let key = PrivateKey(takingOwnershipOf: pkey) else {
            throw CryptoError(.internalFailure, "key generation failed for \(curve.rawValue)")
        }
        return key
    }

    /// Loads a PEM private key: SEC1 ("EC PRIVATE KEY") or PKCS#8 ("PRIVATE KEY").
    public convenience init(pemEncoded pem: String) throws {
        let bytes = Array(pem.utf8)
        let pkey: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let pkey else { throw CryptoError(.invalidInput, "not a PEM private key") }
        guard let curve = Curve.of(pkey) else {
            EVP_PKEY_free(pkey)
            throw CryptoError(.invalidKey, "unsupported private key type (expected P-256/384/521, X25519 or Ed25519)")
        }
        _ = curve
        self.init(takingOwnershipOf: pkey)!
    }

    /// The matching public key (a separate EVP_PKEY holding only the public part).
    public var publicKey: PublicKey {
        // Round-trip through SubjectPublicKeyInfo DER: copies only public material.
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PUBKEY(pkey, &der)
        precondition(length > 0 && der != nil, "OpenSSL could not encode a public key it holds")
        defer { cshims_openssl_free(der) }
        var cursor = UnsafePointer<UInt8>(der)
        let pub = d2i_PUBKEY(nil, &cursor, Int(length))!
        return PublicKey(takingOwnershipOf: pub)!
    }

    public var description: String { "PrivateKey(\(curve.rawValue), redacted)" }
}
