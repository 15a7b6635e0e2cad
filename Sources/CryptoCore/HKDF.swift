import COpenSSL
import COpenSSLShims

/// HKDF (RFC 5869) through OpenSSL's EVP_KDF "HKDF" in EXTRACT_ONLY / EXPAND_ONLY mode.
public enum HKDF {
    /// HKDF-Extract(salt, IKM): returns a pseudorandom key of `algorithm.outputByteCount` bytes.
    ///
    /// An empty salt means a string of HashLen zeros (RFC 5869 §2.2).
    public static func extract(_ algorithm: DigestAlgorithm, salt: UnsafeRawBufferPointer,
                               ikm: UnsafeRawBufferPointer) -> [UInt8] {
        let count = algorithm.outputByteCount
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let ok = withSalt(salt, algorithm) { salt in
                cshims_hkdf(Fetched.hkdf, algorithm.md, Int32(EVP_KDF_HKDF_MODE_EXTRACT_ONLY),
                            ikm.nonNullBase, ikm.count, salt.nonNullBase, salt.count,
                            nil, 0, out.baseAddress, count)
            }
            guard ok == 1 else { fatalError("HKDF-Extract failed for \(algorithm.rawValue)") }
            initialized = count
        }
    }

    /// HKDF-Extract(salt, IKM): returns a pseudorandom key of `algorithm.outputByteCount` bytes.
    ///
    /// An empty salt means a string of HashLen zeros (RFC 5869 §2.2).
    public static func extract(_ algorithm: DigestAlgorithm, salt: some CryptoBytes,
                               ikm: some CryptoBytes) -> [UInt8] {
        salt.withCryptoBytes { salt in ikm.withCryptoBytes { ikm in extract(algorithm, salt: salt, ikm: ikm) } }
    }

    /// HKDF-Extract(salt, IKM): returns a pseudorandom key of `algorithm.outputByteCount` bytes.
    ///
    /// An empty salt means a string of HashLen zeros (RFC 5869 §2.2).
    public static func extract(_ algorithm: DigestAlgorithm, salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        salt.withUnsafeBytes { salt in ikm.withUnsafeBytes { ikm in extract(algorithm, salt: salt, ikm: ikm) } }
    }

    /// HKDF-Expand(PRK, info, L): returns `length` bytes of output keying material.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when `length` is 0 or larger than 255 × HashLen,
    /// or `prk` is shorter than HashLen.
    public static func expand(_ algorithm: DigestAlgorithm, prk: UnsafeRawBufferPointer,
                              info: UnsafeRawBufferPointer, length: Int) throws -> [UInt8] {
        guard length > 0, length <= 255 * algorithm.outputByteCount else {
            throw CryptoError(.invalidInput, "HKDF-Expand length \(length) out of range")
        }
        guard prk.count >= algorithm.outputByteCount else {
            throw CryptoError(.invalidInput, "HKDF-Expand PRK shorter than the hash output")
        }
        return try [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
            guard cshims_hkdf(Fetched.hkdf, algorithm.md, Int32(EVP_KDF_HKDF_MODE_EXPAND_ONLY),
                              prk.nonNullBase, prk.count, nil, 0, info.nonNullBase, info.count,
                              out.baseAddress, length) == 1
            else {
                clearOpenSSLErrors()
                throw CryptoError(.internalFailure, "HKDF-Expand failed")
            }
            initialized = length
        }
    }

    /// HKDF-Expand(PRK, info, L): returns `length` bytes of output keying material.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when `length` is 0 or larger than 255 × HashLen,
    /// or `prk` is shorter than HashLen.
    public static func expand(_ algorithm: DigestAlgorithm, prk: some CryptoBytes, info: some CryptoBytes,
                              length: Int) throws -> [UInt8] {
        try prk.withCryptoBytes { prk in
            try info.withCryptoBytes { info in try expand(algorithm, prk: prk, info: info, length: length) }
        }
    }

    /// HKDF-Expand(PRK, info, L): returns `length` bytes of output keying material.
    ///
    /// Throws `CryptoError` of kind `invalidInput` when `length` is 0 or larger than 255 × HashLen,
    /// or `prk` is shorter than HashLen.
    public static func expand(_ algorithm: DigestAlgorithm, prk: [UInt8], info: [UInt8],
                              length: Int) throws -> [UInt8] {
        try prk.withUnsafeBytes { prk in
            try info.withUnsafeBytes { info in try expand(algorithm, prk: prk, info: info, length: length) }
        }
    }

    /// Extract-then-expand: returns `length` bytes derived from `ikm`, `salt` and `info`.
    ///
    /// The intermediate PRK is zeroized. Throws `CryptoError` of kind `invalidInput` when `length` is 0 or
    /// larger than 255 × HashLen.
    public static func derive(_ algorithm: DigestAlgorithm, ikm: some CryptoBytes, salt: some CryptoBytes,
                              info: some CryptoBytes, length: Int) throws -> [UInt8] {
        var prk = extract(algorithm, salt: salt, ikm: ikm)
        defer { prk.zeroize() }
        return try expand(algorithm, prk: prk, info: info, length: length)
    }

    /// Extract-then-expand: returns `length` bytes derived from `ikm`, `salt` and `info`.
    ///
    /// The intermediate PRK is zeroized. Throws `CryptoError` of kind `invalidInput` when `length` is 0 or
    /// larger than 255 × HashLen.
    public static func derive(_ algorithm: DigestAlgorithm, ikm: [UInt8], salt: [UInt8], info: [UInt8],
                              length: Int) throws -> [UInt8] {
        var prk = extract(algorithm, salt: salt, ikm: ikm)
        defer { prk.zeroize() }
        return try expand(algorithm, prk: prk, info: info, length: length)
    }

    /// OpenSSL treats an absent salt as HashLen zeros, but pass them explicitly so the behaviour does not
    /// depend on how the provider handles an empty key.
    private static func withSalt<R>(_ salt: UnsafeRawBufferPointer, _ algorithm: DigestAlgorithm,
                                    _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if !salt.isEmpty { return body(salt) }
        return withUnsafeTemporaryAllocation(byteCount: algorithm.outputByteCount, alignment: 1) { zeros in
            zeros.initializeMemory(as: UInt8.self, repeating: 0)
            return body(UnsafeRawBufferPointer(zeros))
        }
    }
}
