import COpenSSL
import COpenSSLShims

extension Certificate {
    /// DER bodies of the "CERTIFICATE" / "X509 CERTIFICATE" blocks in `pem`, at most `limit` of them.
    /// Other block types (keys, "TRUSTED CERTIFICATE") are skipped; a malformed block throws.
    static func pemCertificateBlocks(_ pem: String, limit: Int) throws -> [[UInt8]] {
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
                guard label == "CERTIFICATE" || label == "X509 CERTIFICATE" else { continue }
                guard let data, length > 0 else { throw CryptoError(.invalidInput, "empty PEM certificate block") }
                blocks.append(Array(UnsafeBufferPointer(start: data, count: length)))
            }
            return blocks
        }
    }
}

extension Certificate {
    /// The certificate as one PEM "CERTIFICATE" block.
    public var pemEncoded: String { PEM.encode(label: "CERTIFICATE", der: derEncoded) }
}
