import COpenSSL
import COpenSSLShims

/// The d2i, i2d and PEM calls shared by keys, certificates and CRLs.
enum OpenSSLCoding {
    /// Why `decodeWhole` refused its input.
    enum Refusal: Error {
        /// The d2i function failed; OpenSSL's errors are left queued.
        case malformed
        /// The object ended this many bytes before the input did.
        case trailing(Int)
    }

    /// The object `d2i` decodes from `der`, which it must consume whole; the caller owns it. An object followed by
    /// trailing bytes is freed with `free`.
    static func decodeWhole(_ der: [UInt8], _ d2i: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?,
                            free: (OpaquePointer) -> Void) -> Result<OpaquePointer, Refusal> {
        der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return .failure(.malformed) }
            var cursor: UnsafePointer<UInt8>? = base
            guard let object = d2i(&cursor, buffer.count) else { return .failure(.malformed) }
            let consumed = cursor.map { $0 - base } ?? 0
            guard consumed == buffer.count else {
                free(object)
                return .failure(.trailing(buffer.count - consumed))
            }
            return .success(object)
        }
    }

    /// The bytes `i2d` writes into an OpenSSL allocation, copied out and the allocation freed; nil when it fails
    /// (OpenSSL's errors are left queued).
    static func encoded(_ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32) -> [UInt8]? {
        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d(&encoded)
        guard length > 0, let encoded else { return nil }
        defer { cshims_openssl_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }

    /// The key `read` takes from a memory BIO over `pem`, or nil; OpenSSL's errors are cleared.
    static func readPEM(_ pem: String, _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        var pem = pem
        let key: OpaquePointer? = pem.withUTF8 { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
        clearOpenSSLErrors()
        return key
    }
}
