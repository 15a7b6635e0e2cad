import COpenSSL

/// OpenSSL algorithm objects fetched once per process and shared. In OpenSSL 3 fetched EVP_MD,
/// EVP_CIPHER, EVP_KDF and EVP_MAC objects are immutable and safe to use from any thread; they are
/// never freed (process lifetime).
enum Fetched {
    nonisolated(unsafe) static let sha256: OpaquePointer = fetchDigest("SHA2-256")
    nonisolated(unsafe) static let sha384: OpaquePointer = fetchDigest("SHA2-384")
    nonisolated(unsafe) static let sha512: OpaquePointer = fetchDigest("SHA2-512")
    nonisolated(unsafe) static let aes128GCM: OpaquePointer = fetchCipher("AES-128-GCM")
    nonisolated(unsafe) static let aes256GCM: OpaquePointer = fetchCipher("AES-256-GCM")
    nonisolated(unsafe) static let chacha20Poly1305: OpaquePointer = fetchCipher("ChaCha20-Poly1305")
    nonisolated(unsafe) static let hkdf: OpaquePointer = {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { fatalError("OpenSSL has no HKDF") }
        return kdf
    }()
    nonisolated(unsafe) static let hmac: OpaquePointer = {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { fatalError("OpenSSL has no HMAC") }
        return mac
    }()

    private static func fetchDigest(_ name: String) -> OpaquePointer {
        guard let md = EVP_MD_fetch(nil, name, nil) else { fatalError("OpenSSL has no \(name)") }
        return md
    }

    private static func fetchCipher(_ name: String) -> OpaquePointer {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else { fatalError("OpenSSL has no \(name)") }
        return cipher
    }
}
