import CryptoCore

extension HPKE {
    /// Single-shot base-mode encryption (RFC 9180 §6.1): a fresh ephemeral key, sequence number 0.
    ///
    /// Returns the encapsulated key to send with the ciphertext. Throws `HPKEError`: `invalidKey` when
    /// `recipientKey` is not on the suite's curve, `exportOnly` for the export-only AEAD.
    public static func seal(suite: Ciphersuite, recipientKey: PublicKey, info: some CryptoBytes,
                            aad: some CryptoBytes = [UInt8](), plaintext: some CryptoBytes)
        throws -> (encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        let context = try SenderContext(suite: suite, recipientKey: recipientKey, info: info)
        let ciphertext = try context.seal(plaintext, aad: aad)
        return (context.encapsulatedKey, ciphertext)
    }

    /// Single-shot base-mode decryption (RFC 9180 §6.1), the verifier's hot path: one import of `enc`
    /// (length + on-curve check), one ECDH, five HKDF calls (psk_id_hash is cached per suite and the
    /// exporter secret is not derived), one AEAD open.
    ///
    /// Throws `invalidEncapsulatedKey` for a malformed `enc`, `decryptionFailed` when authentication fails,
    /// `invalidKey` when `recipientKey` is not on the suite's curve, `exportOnly` for the export-only AEAD.
    public static func open(suite: Ciphersuite, recipientKey: PrivateKey, encapsulatedKey: some CryptoBytes,
                            ciphertext: some CryptoBytes, info: some CryptoBytes,
                            aad: some CryptoBytes = [UInt8]()) throws -> [UInt8] {
        guard let aead = suite.aead.algorithm else {
            throw HPKEError(.exportOnly, "open is not available with the export-only AEAD")
        }
        var sharedSecret = try encapsulatedKey.withCryptoBytes {
            try suite.kem.decapsulate(enc: $0, recipientKey: recipientKey, senderPublicKey: nil)
        }
        defer { sharedSecret.zeroize() }
        var schedule = try info.withCryptoBytes {
            try keySchedule(suite: suite, mode: .base, sharedSecret: sharedSecret, info: $0, psk: nil,
                            deriveExporterSecret: false)
        }
        defer { schedule.zeroize() }
        // Sequence number 0: the nonce is base_nonce itself.
        return try open(aead, key: schedule.key, nonce: schedule.baseNonce, ciphertext: ciphertext, aad: aad)
    }

    /// Derives a deterministic key pair for `kem` from input keying material `ikm` (RFC 9180 §7.1.3, DeriveKeyPair).
    ///
    /// Throws `HPKEError` of kind `internalFailure` if the derivation fails.
    public static func deriveKeyPair(kem: KEM, ikm: some CryptoBytes) throws -> PrivateKey {
        try ikm.withCryptoBytes { try kem.deriveKeyPair(ikm: $0) }
    }

    /// Encap with a fixed ephemeral key, exposed for known-answer tests: returns (shared_secret, enc).
    package static func encapsulate(kem: KEM, recipientKey: PublicKey, senderKey: PrivateKey? = nil,
                                    ephemeralKey: PrivateKey) throws -> (sharedSecret: [UInt8], enc: [UInt8]) {
        try kem.encapsulate(recipientKey: recipientKey, senderKey: senderKey, ephemeralKey: ephemeralKey)
    }

    /// Decap, exposed for known-answer tests: returns shared_secret.
    package static func decapsulate(kem: KEM, encapsulatedKey: [UInt8], recipientKey: PrivateKey,
                                    senderPublicKey: PublicKey? = nil) throws -> [UInt8] {
        try encapsulatedKey.withUnsafeBytes {
            try kem.decapsulate(enc: $0, recipientKey: recipientKey, senderPublicKey: senderPublicKey)
        }
    }
}
