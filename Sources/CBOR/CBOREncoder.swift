/// Encodes values we build ourselves. Received data must be hashed and verified over its
/// received bytes (`CBORItem.raw`), never over a re-encoding.
public enum CBOREncoder {
    /// Encodes `value` to bytes.
    ///
    /// Uses RFC 8949 §4.2.1 preferred serialization: shortest heads, definite lengths, shortest float
    /// that keeps the value (NaN as f97e00, ±Infinity as half). Map pairs keep the given order
    /// unless `sortMapKeys` (then bytewise lexicographic order of the encoded keys, at every level).
    /// `.encoded` bytes are copied verbatim; `.simple` values 24–31 produce a non-well-formed
    /// item, as RFC 8949 reserves them.
    public static func encode(_ value: CBORValue, sortMapKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        append(value, to: &out, sortMapKeys: sortMapKeys)
        return out
    }

    private static func append(_ value: CBORValue, to out: inout [UInt8], sortMapKeys: Bool) {
        switch value {
        case .unsigned(let v):
            appendHead(major: 0, argument: v, to: &out)
        case .negative(let n):
            appendHead(major: 1, argument: n, to: &out)
        case .bytes(let b):
            appendHead(major: 2, argument: UInt64(b.count), to: &out)
            out.append(contentsOf: b)
        case .text(let s):
            appendHead(major: 3, argument: UInt64(s.utf8.count), to: &out)
            out.append(contentsOf: s.utf8)
        case .array(let items):
            appendHead(major: 4, argument: UInt64(items.count), to: &out)
            for item in items {
                append(item, to: &out, sortMapKeys: sortMapKeys)
            }
        case .map(let pairs):
            appendHead(major: 5, argument: UInt64(pairs.count), to: &out)
            if sortMapKeys {
                let encoded = pairs.map {
                    (key: encode($0.0, sortMapKeys: true), value: encode($0.1, sortMapKeys: true))
                }
                for pair in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                    out.append(contentsOf: pair.key)
                    out.append(contentsOf: pair.value)
                }
            } else {
                for (key, item) in pairs {
                    append(key, to: &out, sortMapKeys: false)
                    append(item, to: &out, sortMapKeys: false)
                }
            }
        case .tagged(let tag, let item):
            appendHead(major: 6, argument: tag, to: &out)
            append(item, to: &out, sortMapKeys: sortMapKeys)
        case .simple(let v):
            if v < 24 {
                out.append(0xE0 | v)
            } else {
                out.append(0xF8)
                out.append(v)
            }
        case .bool(let b):
            out.append(b ? 0xF5 : 0xF4)
        case .null:
            out.append(0xF6)
        case .undefined:
            out.append(0xF7)
        case .float(let d):
            appendFloat(d, to: &out)
        case .encoded(let bytes):
            out.append(contentsOf: bytes)
        }
    }

    /// A head with the shortest argument encoding.
    static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xFF:
            out.append(type | 24)
            out.append(UInt8(argument))
        case 0x100...0xFFFF:
            out.append(type | 25)
            appendBigEndian(argument, bytes: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            appendBigEndian(argument, bytes: 4, to: &out)
        default:
            out.append(type | 27)
            appendBigEndian(argument, bytes: 8, to: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func appendFloat(_ d: Double, to out: inout [UInt8]) {
        if let half = halfBits(exactly: d) {
            out.append(0xF9)
            appendBigEndian(UInt64(half), bytes: 2, to: &out)
        } else if let single = Float(exactly: d) {
            out.append(0xFA)
            appendBigEndian(UInt64(single.bitPattern), bytes: 4, to: &out)
        } else {
            out.append(0xFB)
            appendBigEndian(d.bitPattern, bytes: 8, to: &out)
        }
    }

    /// IEEE 754 binary16 bits for `d` if the conversion is exact (any NaN gives 7e00).
    static func halfBits(exactly d: Double) -> UInt16? {
        if d.isNaN { return 0x7E00 }
        let sign: UInt16 = d.sign == .minus ? 0x8000 : 0
        let magnitude = d.magnitude
        if magnitude.isInfinite { return sign | 0x7C00 }
        if magnitude == 0 { return sign }
        let exponent = magnitude.exponent
        guard exponent <= 15, exponent >= -24 else { return nil }
        if exponent >= -14 {
            // Normal: the 52-bit fraction must fit in 10 bits.
            let fraction = magnitude.significandBitPattern
            guard fraction & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(fraction >> 42)
        }
        // Subnormal: value = m × 2^-24 with integer m < 1024 (scaling by 2^24 is exact).
        let m = magnitude * 0x1p24
        guard m == m.rounded(.towardZero) else { return nil }
        return sign | UInt16(m)
    }
}
