import COpenSSL

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

    public var description: String { "PrivateKey(\(curve.rawValue), redacted)" }
}
