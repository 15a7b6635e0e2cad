import COpenSSL
import COpenSSLShims

/// PEM armour (RFC 7468) for DER produced here.
public enum PEM {
    /// Wraps `der` in a PEM block with `label` (e.g. "CERTIFICATE"): Base64 in 64-character lines between BEGIN and END
    /// lines.
    public static func encode(label: String, der: [UInt8]) -> String {
        let encodedCount = 4 * ((der.count + 2) / 3)
        let base64 = [UInt8](unsafeUninitializedCapacity: encodedCount + 1) { out, initialized in
            let written = der.withUnsafeBufferPointer {
                EVP_EncodeBlock(out.baseAddress, $0.baseAddress ?? UnsafePointer(emptyByte), Int32(der.count))
            }
            initialized = Int(written)
        }
        var pem = "-----BEGIN \(label)-----\n"
        var index = 0
        while index < base64.count {
            let end = min(index + 64, base64.count)
            pem += String(decoding: base64[index..<end], as: UTF8.self)
            pem += "\n"
            index = end
        }
        pem += "-----END \(label)-----\n"
        return pem
    }

    /// DER bodies of the blocks labelled one of `labels` in `pem`, at most `limit` of them. Other blocks are
    /// skipped; a malformed block throws.
    static func blocks(_ pem: String, labels: Set<String>, limit: Int) throws -> [[UInt8]] {
        let text = Array(pem.utf8)
        guard !text.isEmpty else { throw CryptoError(.invalidInput, "empty PEM input") }
        guard text.count <= Int(Int32.max) else { throw CryptoError(.invalidInput, "PEM input too large") }
        return try text.withUnsafeBytes { buffer -> [[UInt8]] in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw CryptoError(.internalFailure, X509Support.drainErrors("BIO_new_mem_buf failed"))
            }
            defer { BIO_free(bio) }
            ERR_clear_error()
            var blocks: [[UInt8]] = []
            while blocks.count < limit {
                var name: UnsafeMutablePointer<CChar>? = nil
                var header: UnsafeMutablePointer<CChar>? = nil
                var data: UnsafeMutablePointer<UInt8>? = nil
                var length = 0
                guard PEM_read_bio(bio, &name, &header, &data, &length) == 1 else {
                    let atEnd = cshims_err_is_pem_no_start_line() == 1
                    if atEnd {
                        ERR_clear_error()
                        break
                    }
                    throw CryptoError(.invalidInput, X509Support.drainErrors("malformed PEM block"))
                }
                defer {
                    cshims_openssl_free(name)
                    cshims_openssl_free(header)
                    cshims_openssl_free(data)
                }
                let label = name.map { String(cString: $0) } ?? ""
                guard labels.contains(label) else { continue }
                guard let data, length > 0 else { throw CryptoError(.invalidInput, "empty PEM \(label) block") }
                blocks.append(Array(UnsafeBufferPointer(start: data, count: length)))
            }
            return blocks
        }
    }
}
