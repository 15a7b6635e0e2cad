import COpenSSL

/// A public key held as an OpenSSL EVP_PKEY. Immutable after creation; safe to share across tasks.
public final class PublicKey: @unchecked Sendable {
    /// The owned EVP_PKEY; freed in deinit. Callers that pass it to OpenSSL keep `self` alive
    /// (`withExtendedLifetime`) for the duration of the call.
    package let pkey: OpaquePointer
    public let curve: Curve

    /// Takes ownership of `pkey` (its reference is released in deinit).
    /// Returns nil, and frees `pkey`, when the key type is unsupported.
    package init?(takingOwnershipOf pkey: OpaquePointer) {
        guard let curve = Curve.of(pkey) else {
            EVP_PKEY_free(pkey)
            return nil
        }
        self.pkey = pkey
        self.curve = curve
    }

    deinit { EVP_PKEY_free(pkey) }
}
