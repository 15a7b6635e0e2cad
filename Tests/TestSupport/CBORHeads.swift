/// CBOR heads written out byte by byte, for tests that compare encodings with bytes spelled out by hand.
public enum CBORHeads {
    /// The head of a byte string (major type 2) of `count` bytes, for lengths below 65536.
    public static func bstr(_ count: Int) -> [UInt8] {
        switch count {
        case ..<24: return [0x40 | UInt8(count)]
        case ..<256: return [0x58, UInt8(count)]
        default: return [0x59, UInt8(count >> 8), UInt8(count & 0xff)]
        }
    }
}
