/// Strict UTF-8 validation (RFC 3629 / Unicode Table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF). libcbor 0.9+ no longer checks text strings, so we do.
enum UTF8Validation {
    /// The index of the first byte of the first ill-formed sequence, or nil if `bytes` is valid.
    static func firstInvalidIndex(_ bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let offset = firstInvalidOffset(buffer) else { return nil }
            return bytes.startIndex + offset
        }
    }

    /// Makes a String from UTF-8 bytes; throws `.invalidUTF8` at the first bad sequence.
    static func string(_ bytes: ArraySlice<UInt8>) throws(CBORDecodingError) -> String {
        if let bad = firstInvalidIndex(bytes) {
            throw CBORDecodingError(.invalidUTF8, offset: bad)
        }
        // Valid, so nothing is repaired. (String(validating:) would avoid the second pass but
        // is unspecialized and costs more in generic-metadata lookups than it saves.)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset in `b` of the first byte of the first ill-formed sequence, or nil if `b` is valid.
    static func firstInvalidOffset(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time (nearly all identifiers and values are ASCII).
            if let base = b.baseAddress, n - i >= 8,
               UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // Allowed range of the second byte depends on the lead (Table 3-7).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + 1 < n, b[i + 1] >= low, b[i + 1] <= high else { return i }
            var k = 2
            while k < length {
                guard i + k < n, b[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }
}
