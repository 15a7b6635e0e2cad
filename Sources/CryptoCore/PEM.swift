import COpenSSL

/// PEM armour (RFC 7468) for DER produced here.
public enum PEM {
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
}
