import COpenSSL
import COpenSSLShims

/// The SHA-2 digests used by COSE (ES256/384/512), HKDF and HPKE.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    /// SHA-256 (32-byte output).
    case sha256 = "SHA-256"
    /// SHA-384 (48-byte output).
    case sha384 = "SHA-384"
    /// SHA-512 (64-byte output).
    case sha512 = "SHA-512"

    /// The digest length in bytes (HashLen): 32, 48 or 64.
    public var outputByteCount: Int {
        switch self {
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The shared, pre-fetched EVP_MD.
    package var md: OpaquePointer {
        switch self {
        case .sha256: return Fetched.sha256
        case .sha384: return Fetched.sha384
        case .sha512: return Fetched.sha512
        }
    }
}

/// One-shot SHA-2 message digests.
public enum Digest {
    /// Returns the digest of `data` with `algorithm`.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: algorithm.outputByteCount) { out, initialized in
            initialized = compute(algorithm, data, into: out)
        }
    }

    /// Returns the digest of the bytes of `data` with `algorithm`.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { hash(algorithm, $0) }
    }

    /// Whether the digest of `data` with `algorithm` equals `expected`, compared in constant time.
    ///
    /// The digest is computed into a stack buffer, so checking many values (an MSO's value digests) allocates nothing.
    public static func matches(_ algorithm: DigestAlgorithm, _ data: some CryptoBytes, _ expected: some CryptoBytes) -> Bool {
        data.withCryptoBytes { data in expected.withCryptoBytes { matches(algorithm, data, $0) } }
    }

    /// Whether the digest of `data` with `algorithm` equals `expected`, compared in constant time. Not generic: called
    /// from another module, the generic version goes through witness tables for every value it checks.
    public static func matches(_ algorithm: DigestAlgorithm, _ data: UnsafeRawBufferPointer, _ expected: UnsafeRawBufferPointer) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxOutputByteCount) { out in
            let count = compute(algorithm, data, into: out)
            return constantTimeEquals(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(out)[..<count]), expected)
        }
    }

    /// The longest digest (SHA-512).
    private static let maxOutputByteCount = 64

    /// Writes the digest of `data` to the start of `out` (at least `algorithm.outputByteCount` bytes) and returns its
    /// length. EVP_Digest fails only on an allocation failure inside OpenSSL, after which nothing is safe to continue.
    private static func compute(_ algorithm: DigestAlgorithm, _ data: UnsafeRawBufferPointer,
                                into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let count = algorithm.outputByteCount
        precondition(out.count >= count, "digest buffer too small")
        var length: UInt32 = 0
        guard EVP_Digest(data.nonNullBase, data.count, out.baseAddress, &length, algorithm.md, nil) == 1, Int(length) == count
        else { fatalError("EVP_Digest failed for \(algorithm.rawValue)") }
        return count
    }

    /// Returns the digest of the bytes of `data` with `algorithm`.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: ArraySlice<UInt8>) -> [UInt8] {
        data.withUnsafeBytes { hash(algorithm, $0) }
    }

    /// Returns the digest of the bytes of `data` with `algorithm`.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: some CryptoBytes) -> [UInt8] {
        data.withCryptoBytes { hash(algorithm, $0) }
    }
}

/// HMAC (RFC 2104) with a SHA-2 digest.
public enum HMAC {
    /// Returns the HMAC of `data` under `key`, `algorithm.outputByteCount` bytes long.
    public static func authenticate(_ algorithm: DigestAlgorithm, key: UnsafeRawBufferPointer,
                                    data: UnsafeRawBufferPointer) -> [UInt8] {
        let count = algorithm.outputByteCount
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            guard cshims_hmac(Fetched.hmac, algorithm.md, key.nonNullBase, key.count,
                              data.nonNullBase, data.count, out.baseAddress, count) == 1
            else { fatalError("HMAC failed for \(algorithm.rawValue)") }
            initialized = count
        }
    }

    /// Returns the HMAC of `data` under `key`, `algorithm.outputByteCount` bytes long.
    public static func authenticate(_ algorithm: DigestAlgorithm, key: some CryptoBytes,
                                    data: some CryptoBytes) -> [UInt8] {
        key.withCryptoBytes { key in
            data.withCryptoBytes { data in authenticate(algorithm, key: key, data: data) }
        }
    }

    /// Returns the HMAC of `data` under `key`, `algorithm.outputByteCount` bytes long.
    public static func authenticate(_ algorithm: DigestAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { key in
            data.withUnsafeBytes { data in authenticate(algorithm, key: key, data: data) }
        }
    }
}
