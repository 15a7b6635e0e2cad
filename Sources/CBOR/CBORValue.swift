/// A CBOR value we build ourselves (transcripts, COSE structures, test data), for `CBOREncoder`. Only `tagged` is
/// `indirect`: arrays and maps hold their members out of line already.
public enum CBORValue: Sendable, Equatable {
    /// An unsigned integer.
    case unsigned(UInt64)
    /// A negative integer given by its argument n; the value is -1 - n.
    case negative(UInt64)
    /// A byte string.
    case bytes([UInt8])
    /// A text string.
    case text(String)
    /// An array.
    case array([CBORValue])
    /// A map, with its pairs in the order they are encoded (unless the encoder is asked to sort).
    case map([(CBORValue, CBORValue)])
    /// A tag number and the value it wraps.
    indirect case tagged(UInt64, CBORValue)
    /// Simple values other than false/true/null/undefined (0–19, 32–255).
    case simple(UInt8)
    /// The simple value false or true.
    case bool(Bool)
    /// The simple value null.
    case null
    /// The simple value undefined.
    case undefined
    /// A floating-point number, encoded in the shortest precision that keeps its value.
    case float(Double)
    /// A pre-encoded item spliced in verbatim (e.g. received DeviceNameSpacesBytes).
    case encoded([UInt8])

    /// An integer as `.unsigned` or `.negative`.
    public static func int(_ v: Int64) -> CBORValue {
        v >= 0 ? .unsigned(UInt64(v)) : .negative(UInt64(bitPattern: ~v))  // ~v == -1 - v
    }

    /// `#6.24(bstr .cbor v)`: tag 24 around the encoding of `v`.
    public static func embedded(_ v: CBORValue) -> CBORValue {
        .tagged(24, .bytes(CBOREncoder.encode(v)))
    }

    /// Structural equality. Text compares by UTF-8 bytes; floats by bit pattern, except that
    /// all NaNs are equal (they all encode as f97e00).
    public static func == (a: CBORValue, b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.tagged(let t, let x), .tagged(let u, let y)): t == u && x == y
        case (.simple(let x), .simple(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null), (.undefined, .undefined): true
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.encoded(let x), .encoded(let y)): x == y
        default: false
        }
    }
}

extension CBORItem {
    /// This item's received bytes, for splicing verbatim into a structure we encode.
    public var asValue: CBORValue { .encoded(Array(raw)) }

    /// The item as a value tree (received encoding details such as non-minimal heads and
    /// indefinite lengths are dropped; re-encoding gives the preferred serialization).
    public func toValue() -> CBORValue {
        switch value {
        case .unsigned(let v): .unsigned(v)
        case .negative(let n): .negative(n)
        case .bytes(let b): .bytes(Array(b))
        case .text(let s): .text(s)
        case .array(let items): .array(items.map { $0.toValue() })
        case .map(let entries): .map(entries.map { ($0.key.toValue(), $0.value.toValue()) })
        case .tagged(let tag, let item): .tagged(tag, item.toValue())
        case .simple(let v): .simple(v)
        case .bool(let b): .bool(b)
        case .null: .null
        case .undefined: .undefined
        case .float(let d): .float(d)
        }
    }
}
