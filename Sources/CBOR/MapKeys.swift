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
        let identities = entries.map { Identity($0.key) }
        if entries.count <= 8 {
            // Small maps (the common case): pairwise comparison beats building a set.
            for i in 1..<identities.count {
                for j in 0..<i where identities[j] == identities[i] {
                    throw CBORDecodingError(.duplicateMapKey, offset: entries[i].key.raw.startIndex)
                }
            }
            return
        }
        var seen = Set<Identity>(minimumCapacity: identities.count)
        for (index, identity) in identities.enumerated() where !seen.insert(identity).inserted {
            throw CBORDecodingError(.duplicateMapKey, offset: entries[index].key.raw.startIndex)
        }
    }
}
