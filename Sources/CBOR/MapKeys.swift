/// Duplicate-key detection for decoded maps. Keys are compared by CBOR value, not by their
/// received bytes: `01` and `18 01` are the same key, as are a definite and an indefinite
/// text string with the same characters.
enum MapKeys {
    /// A key's value in a hashable form. Text is compared by its UTF-8 bytes (not by Swift's
    /// canonical-equivalence `==`); uncommon key types by their deterministic re-encoding.
    enum Identity: Hashable {
        case unsigned(UInt64)
        case negative(UInt64)
        case text(UTF8Key)
        case bytes(ArraySlice<UInt8>)
        case other([UInt8])

        init(_ key: CBORItem) {
            switch key.value {
            case .unsigned(let v): self = .unsigned(v)
            case .negative(let n): self = .negative(n)
            case .text(let s): self = .text(UTF8Key(string: s))
            case .bytes(let b): self = .bytes(b)
            default: self = .other(CBOREncoder.encode(key.toValue(), sortMapKeys: true))
            }
        }
    }

    struct UTF8Key: Hashable {
        var string: String

        static func == (a: UTF8Key, b: UTF8Key) -> Bool {
            a.string.utf8.count == b.string.utf8.count && a.string.utf8.elementsEqual(b.string.utf8)
        }

        func hash(into hasher: inout Hasher) {
            var string = string
            string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Throws `.duplicateMapKey` at the first key equal to an earlier one.
    static func checkUnique(_ entries: [CBORMapEntry]) throws(CBORDecodingError) {
        guard entries.count > 1 else { return }
        if entries.count <= 8 {
            // Small maps (the common case): pairwise comparison, building neither an array nor a set.
            for i in 1..<entries.count {
                let key = Identity(entries[i].key)
                for j in 0..<i where Identity(entries[j].key) == key {
                    throw CBORDecodingError(.duplicateMapKey, offset: entries[i].key.raw.startIndex)
                }
            }
            return
        }
        var seen = Set<Identity>(minimumCapacity: entries.count)
        for entry in entries where !seen.insert(Identity(entry.key)).inserted {
            throw CBORDecodingError(.duplicateMapKey, offset: entry.key.raw.startIndex)
        }
    }
}
