import CBOR
import CryptoCore

/// An MSO's `valueDigests` (ISO/IEC 18013-5 §9.1.2.4): namespace → digestID → digest, read in place from the MSO's
/// decoded rows. `MobileSecurityObject` checks every entry once when it decodes the MSO (uint keys, byte strings of
/// the algorithm's length, the `ResponseLimits` ceilings), so lookups read only what they return.
package struct ValueDigests: Sendable {
    /// The digests of one namespace.
    package struct NameSpace: Sendable {
        let map: CBORMap
        /// The digest IDs in map order. Scanned for namespaces shorter than `indexedFrom`, where a scan costs less than
        /// hashing every digest ID of a response that discloses most of them.
        let ids: [UInt64]
        /// digestID → position in `map`, for longer namespaces.
        let index: [UInt64: Int]?

        static let indexedFrom = 64

        /// `ids` are the map's keys, in order (read while its entries were checked).
        init(_ map: CBORMap, ids: [UInt64]) {
            self.map = map
            self.ids = ids
            guard ids.count >= Self.indexedFrom else {
                index = nil
                return
            }
            var index: [UInt64: Int] = [:]
            index.reserveCapacity(ids.count)
            // Keys are unique (the decoder refuses duplicate map keys), so no position is overwritten.
            for (position, id) in ids.enumerated() { index[id] = position }
            self.index = index
        }

        /// Whether the digest of `data` with `algorithm` equals the digest with `id` (compared in constant time),
        /// or nil when the namespace has no digest with `id`. The expected digest is read in place.
        package func matches(_ id: UInt64, _ algorithm: DigestAlgorithm, _ data: ArraySlice<UInt8>) -> Bool? {
            let position = if let index { index[id] } else { ids.firstIndex(of: id) }
            guard let position else { return nil }
            return data.withUnsafeBytes { data in
                map.withValueBytes(position) { Digest.matches(algorithm, data, UnsafeRawBufferPointer($0)) }
            } ?? false
        }
    }

    let nameSpaces: [(name: String, digests: NameSpace)]

    init(_ nameSpaces: [(name: String, digests: NameSpace)]) {
        self.nameSpaces = nameSpaces
    }

    /// The digests of `nameSpace`, or nil when the MSO has none for it. Namespace keys are unique: the decoder refuses
    /// duplicate map keys.
    package subscript(nameSpace nameSpace: String) -> NameSpace? {
        nameSpaces.first { $0.name == nameSpace }?.digests
    }
}
