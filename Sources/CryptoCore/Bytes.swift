import COpenSSL

/// Contiguous bytes that can be handed to OpenSSL without copying.
///
/// `[UInt8]`, `ArraySlice<UInt8>`, `ContiguousArray<UInt8>` and the unsafe buffer types conform.
/// Other modules can add conformances for their own buffer types (e.g. Foundation's `Data`).
public protocol CryptoBytes {
    /// Calls `body` with a view of the bytes, valid only for the duration of the call.
    func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: CryptoBytes where Element == UInt8 {
    /// Calls `body` with a view of the array's bytes, valid only for the duration of the call.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension ArraySlice: CryptoBytes where Element == UInt8 {
    /// Calls `body` with a view of the slice's bytes, valid only for the duration of the call.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension ContiguousArray: CryptoBytes where Element == UInt8 {
    /// Calls `body` with a view of the array's bytes, valid only for the duration of the call.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension UnsafeRawBufferPointer: CryptoBytes {
    /// Calls `body` with this buffer itself.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(self)
    }
}

extension UnsafeMutableRawBufferPointer: CryptoBytes {
    /// Calls `body` with a read-only view of this buffer.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(self))
    }
}

extension UnsafeBufferPointer: CryptoBytes where Element == UInt8 {
    /// Calls `body` with a raw view of this buffer's bytes.
    @inlinable
    public func withCryptoBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(self))
    }
}

extension UnsafeRawBufferPointer {
    /// A base address that is never nil (OpenSSL rejects NULL even for zero-length input in places).
    @usableFromInline
    var nonNullBase: UnsafePointer<UInt8> {
        if let base = baseAddress { return base.assumingMemoryBound(to: UInt8.self) }
        return UnsafePointer(emptyByte)
    }
}

/// A static, never-written byte used as the address of empty input.
@usableFromInline
nonisolated(unsafe) let emptyByte: UnsafeMutablePointer<UInt8> = {
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return pointer
}()

/// Compares two byte strings in time that depends only on their lengths (CRYPTO_memcmp).
///
/// Returns false when the lengths differ; two empty inputs are equal.
public func constantTimeEquals(_ a: some CryptoBytes, _ b: some CryptoBytes) -> Bool {
    a.withCryptoBytes { a in
        b.withCryptoBytes { b in
            guard a.count == b.count else { return false }
            if a.isEmpty { return true }
            return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
        }
    }
}

/// Cryptographically secure random bytes from OpenSSL's DRBG (RAND_bytes).
public enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    ///
    /// `count` must not be negative. If OpenSSL's random generator cannot be seeded the process stops
    /// (`fatalError`) rather than returning weak bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                // RAND_bytes only fails when the DRBG cannot be seeded; continuing would be unsafe.
                guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                    fatalError("RAND_bytes failed: the system random source is unavailable")
                }
            }
            initialized = count
        }
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros (OPENSSL_cleanse, which the optimiser cannot remove).
    ///
    /// Only this array's storage is cleared: copies that no longer share storage are not affected.
    public mutating func zeroize() {
        withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 { OPENSSL_cleanse(base, buffer.count) }
        }
    }
}

/// Clears the OpenSSL error queue of this thread so that one failure does not leak into the next call.
@inline(__always)
func clearOpenSSLErrors() {
    ERR_clear_error()
}
