/// Minimal DER encoding for the extension values CertificateBuilder writes.
enum DERWriter {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else {
            var length = content.count
            var lengthBytes: [UInt8] = []
            while length > 0 {
                lengthBytes.insert(UInt8(length & 0xff), at: 0)
                length >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        return out + content
    }

    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xff : 0x00] }

    /// Minimal two's-complement INTEGER.
    static func integer(_ value: Int) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xff && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    /// A named-bit BIT STRING (trailing zero bits dropped, as DER requires); bit n is `1 << n` in `bits`
    /// and goes to mask 0x80 >> (n % 8) of octet n / 8.
    static func namedBitString(_ bits: UInt16) -> [UInt8] {
        var bytes: [UInt8] = [0, 0]
        for n in 0..<16 where bits & (1 << UInt16(n)) != 0 {
            bytes[n / 8] |= 0x80 >> UInt8(n % 8)
        }
        while let last = bytes.last, last == 0 { bytes.removeLast() }
        guard let last = bytes.last else { return [0x03, 0x01, 0x00] }
        return tlv(0x03, [UInt8(last.trailingZeroBitCount)] + bytes)
    }

    /// Content octets of an OBJECT IDENTIFIER in dotted form; nil when the text is not a valid OID.
    static func objectIdentifierContent(_ dotted: String) -> [UInt8]? {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        var arcs: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        guard arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40, arcs[1] <= UInt64.max - 80 else { return nil }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7f)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    static func objectIdentifier(_ dotted: String) -> [UInt8]? {
        objectIdentifierContent(dotted).map { tlv(0x06, $0) }
    }
}
