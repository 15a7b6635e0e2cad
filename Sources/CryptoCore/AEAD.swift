import COpenSSL

/// AEAD ciphers with a 12-byte nonce and a 16-byte tag appended to the ciphertext.
public enum AEADAlgorithm: String, Sendable, CaseIterable {
    /// AES-128 in GCM mode (16-byte key).
    case aes128GCM = "AES-128-GCM"
    /// AES-256 in GCM mode (32-byte key).
    case aes256GCM = "AES-256-GCM"
    /// ChaCha20-Poly1305 (RFC 8439, 32-byte key).
    case chacha20Poly1305 = "ChaCha20-Poly1305"

    /// The key length in bytes: 16 for AES-128-GCM, 32 for the others.
    public var keyByteCount: Int {
        switch self {
        case .aes128GCM: return 16
        case .aes256GCM, .chacha20Poly1305: return 32
        }
    }

    /// The nonce length in bytes, always 12.
    public var nonceByteCount: Int { 12 }
    /// The authentication tag length in bytes, always 16.
    public var tagByteCount: Int { 16 }

    var cipher: OpaquePointer {
        switch self {
        case .aes128GCM: return Fetched.aes128GCM
        case .aes256GCM: return Fetched.aes256GCM
        case .chacha20Poly1305: return Fetched.chacha20Poly1305
        }
    }

    /// Encrypts and authenticates; returns ciphertext || tag.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when the key or nonce has the wrong length.
    public func seal(key: some CryptoBytes, nonce: some CryptoBytes, plaintext: some CryptoBytes,
                     aad: some CryptoBytes) throws -> [UInt8] {
        try key.withCryptoBytes { key in
            try nonce.withCryptoBytes { nonce in
                try plaintext.withCryptoBytes { plaintext in
                    try aad.withCryptoBytes { aad in
                        try seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad)
                    }
                }
            }
        }
    }

    /// Verifies and decrypts ciphertext || tag.
    ///
    /// Throws `CryptoError` of kind `authenticationFailed` when the input is shorter than a tag or the tag does not
    /// match (no plaintext is returned in that case), `invalidInput` when the key or nonce has the wrong length.
    public func open(key: some CryptoBytes, nonce: some CryptoBytes, ciphertext: some CryptoBytes,
                     aad: some CryptoBytes) throws -> [UInt8] {
        try key.withCryptoBytes { key in
            try nonce.withCryptoBytes { nonce in
                try ciphertext.withCryptoBytes { ciphertext in
                    try aad.withCryptoBytes { aad in
                        try open(key: key, nonce: nonce, ciphertext: ciphertext, aad: aad)
                    }
                }
            }
        }
    }

    /// Encrypts and authenticates; returns ciphertext || tag.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when the key or nonce has the wrong length.
    public func seal(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
                     plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        try checkSizes(key: key, nonce: nonce)
        guard plaintext.count <= Int.max - tagByteCount else { throw CryptoError(.invalidInput, "plaintext too long") }
        let ctx = try newContext(key: key, nonce: nonce, encrypt: true)
        defer { EVP_CIPHER_CTX_free(ctx) }
        try feedAAD(ctx, aad)
        let total = plaintext.count + tagByteCount
        return try [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            let base = out.baseAddress!
            try update(ctx, input: plaintext, output: base, encrypt: true)
            var finalLength: Int32 = 0
            guard EVP_EncryptFinal_ex(ctx, base + plaintext.count, &finalLength) == 1, finalLength == 0,
                  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount),
                                      base + plaintext.count) == 1
            else {
                clearOpenSSLErrors()
                throw CryptoError(.internalFailure, "\(rawValue) encryption failed")
            }
            initialized = total
        }
    }

    /// Verifies and decrypts ciphertext || tag.
    ///
    /// Throws `CryptoError` of kind `authenticationFailed` when the input is shorter than a tag or the tag does not
    /// match (no plaintext is returned in that case), `invalidInput` when the key or nonce has the wrong length.
    public func open(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
                     ciphertext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        try checkSizes(key: key, nonce: nonce)
        guard ciphertext.count >= tagByteCount else {
            throw CryptoError(.authenticationFailed, "ciphertext shorter than the \(rawValue) tag")
        }
        let ctx = try newContext(key: key, nonce: nonce, encrypt: false)
        defer { EVP_CIPHER_CTX_free(ctx) }
        let bodyCount = ciphertext.count - tagByteCount
        let body = UnsafeRawBufferPointer(rebasing: ciphertext[..<bodyCount])
        let tag = ciphertext.baseAddress! + bodyCount
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount),
                                  UnsafeMutableRawPointer(mutating: tag)) == 1
        else {
            clearOpenSSLErrors()
            throw CryptoError(.internalFailure, "\(rawValue) tag could not be set")
        }
        try feedAAD(ctx, aad)
        var plaintext = try [UInt8](unsafeUninitializedCapacity: bodyCount) { out, initialized in
            if bodyCount > 0 { try update(ctx, input: body, output: out.baseAddress!, encrypt: false) }
            initialized = bodyCount
        }
        var finalLength: Int32 = 0
        let ok = plaintext.withUnsafeMutableBufferPointer { out in
            // GCM/ChaCha20-Poly1305 produce no output at Final; give a valid pointer anyway.
            EVP_DecryptFinal_ex(ctx, out.baseAddress ?? emptyByte, &finalLength)
        }
        guard ok == 1, finalLength == 0 else {
            // A tag mismatch leaves nothing on the error queue; other failures might.
            clearOpenSSLErrors()
            plaintext.zeroize()
            throw CryptoError(.authenticationFailed, "\(rawValue) authentication failed")
        }
        return plaintext
    }

    private func checkSizes(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer) throws {
        guard key.count == keyByteCount else {
            throw CryptoError(.invalidInput, "\(rawValue) key must be \(keyByteCount) bytes, got \(key.count)")
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError(.invalidInput, "\(rawValue) nonce must be \(nonceByteCount) bytes, got \(nonce.count)")
        }
    }

    private func newContext(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
                            encrypt: Bool) throws -> OpaquePointer {
        guard let ctx = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.internalFailure, "EVP_CIPHER_CTX_new failed")
        }
        // Both GCM and ChaCha20-Poly1305 default to a 12-byte IV, which is the only size accepted here.
        let ok = encrypt
            ? EVP_EncryptInit_ex2(ctx, cipher, key.nonNullBase, nonce.nonNullBase, nil)
            : EVP_DecryptInit_ex2(ctx, cipher, key.nonNullBase, nonce.nonNullBase, nil)
        guard ok == 1 else {
            EVP_CIPHER_CTX_free(ctx)
            clearOpenSSLErrors()
            throw CryptoError(.internalFailure, "\(rawValue) initialisation failed")
        }
        return ctx
    }

    private func feedAAD(_ ctx: OpaquePointer, _ aad: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < aad.count {
            let chunk = Int32(min(aad.count - offset, Int(Int32.max / 2)))
            var outLength: Int32 = 0
            guard EVP_CipherUpdate(ctx, nil, &outLength, aad.nonNullBase + offset, chunk) == 1 else {
                clearOpenSSLErrors()
                throw CryptoError(.internalFailure, "\(rawValue) AAD processing failed")
            }
            offset += Int(chunk)
        }
    }

    private func update(_ ctx: OpaquePointer, input: UnsafeRawBufferPointer,
                        output: UnsafeMutablePointer<UInt8>, encrypt: Bool) throws {
        var offset = 0
        while offset < input.count {
            let chunk = Int32(min(input.count - offset, Int(Int32.max / 2)))
            var outLength: Int32 = 0
            guard EVP_CipherUpdate(ctx, output + offset, &outLength, input.nonNullBase + offset, chunk) == 1,
                  outLength == chunk
            else {
                clearOpenSSLErrors()
                throw CryptoError(.internalFailure, "\(rawValue) \(encrypt ? "encryption" : "decryption") failed")
            }
            offset += Int(chunk)
        }
    }
}
