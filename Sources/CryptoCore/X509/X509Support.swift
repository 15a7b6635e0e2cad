import COpenSSL
import COpenSSLShims

/// Small helpers shared by the X.509 files: digests, OID text, ASN1_STRING bytes, OpenSSL-allocated strings.
package enum X509Support {
    /// SHA-1, which `Digest` deliberately does not offer: only for RFC 5280 key identifiers (method 1).
    nonisolated(unsafe) private static let sha1MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA1", nil)

    package static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        guard let md = sha1MD else { return [] }
        var out = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &length, md, nil) }
        guard ok == 1 else {
            ERR_clear_error()
            return []
        }
        return out
    }

    /// Dotted text of an OID ("2.5.29.15"), never a name.
    static func oidString(_ object: OpaquePointer?) -> String {
        guard let object else { return "" }
        var buffer = [CChar](repeating: 0, count: 128)
        var needed = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            needed = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        }
        guard needed > 0 else { return "" }
        return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The content bytes of any ASN1_STRING (OCTET STRING, BIT STRING, IA5String, …).
    package static func bytes(_ string: UnsafePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        let length = Int(ASN1_STRING_length(string))
        guard length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// Takes a NUL-terminated string allocated by OpenSSL and frees it.
    static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { cshims_openssl_free(pointer) }
        return String(cString: pointer)
    }

    /// Description of the last queued OpenSSL error (or `fallback`); clears the queue.
    package static func drainErrors(_ fallback: String) -> String {
        let code = ERR_peek_last_error()
        defer { ERR_clear_error() }
        guard code != 0, let reason = ERR_reason_error_string(code) else { return fallback }
        return "\(fallback): \(String(cString: reason))"
    }
}
