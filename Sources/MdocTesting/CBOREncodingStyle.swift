import CBOR

/// How the kit serializes the structures it builds.
public enum CBOREncodingStyle: Sendable, Equatable {
    /// RFC 8949 preferred serialization (what `CBOREncoder` writes).
    case preferred
    /// Valid but not shortest: map heads with a 2-byte count (`b9 00 04`) and unsigned integers below 24 with a
    /// 1-byte argument (`18 05`). Real wallets send such bytes; a verifier must hash them as received.
    case nonShortest

    /// Encodes `value` in this style.
    public func encode(_ value: CBORValue) -> [UInt8] {
        switch self {
        case .preferred:
            return CBOREncoder.encode(value)
        case .nonShortest:
            var out: [UInt8] = []
            Self.appendNonShortest(value, to: &out)
            return out
        }
    }

    private static func appendNonShortest(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n) where n < 24:
            out += [0x18, UInt8(n)]
        case .map(let pairs) where pairs.count <= 0xFFFF:
            out += [0xb9, UInt8(pairs.count >> 8), UInt8(pairs.count & 0xFF)]
            for (key, item) in pairs {
                appendNonShortest(key, to: &out)
                appendNonShortest(item, to: &out)
            }
        case .array(let items):
            // The array head itself stays shortest; its members are rewritten.
            out += arrayHead(items.count)
            for item in items { appendNonShortest(item, to: &out) }
        case .tagged(let tag, let inner):
            out += tagHead(tag)
            appendNonShortest(inner, to: &out)
        default:
            out += CBOREncoder.encode(value)
        }
    }

    /// Shortest heads for arrays and tags, from the preferred encoder (encode an empty shell, drop the body).
    private static func arrayHead(_ count: Int) -> [UInt8] {
        let shell = CBOREncoder.encode(.array(Array(repeating: .null, count: count)))
        return Array(shell.dropLast(count))
    }

    private static func tagHead(_ tag: UInt64) -> [UInt8] {
        Array(CBOREncoder.encode(.tagged(tag, .null)).dropLast())
    }
}
