/// Why decoding failed and where. Messages carry only the kind and offset, never input bytes.
public struct CBORDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The category of a decoding failure.
    public enum Kind: String, Sendable {
        /// The item starting at `offset` runs past the end of the input (head, content, or a
        /// container's declared count/length that the remaining input cannot hold).
        case truncated
        /// One complete item ended at `offset` but more bytes follow.
        case trailingBytes
        /// Not well-formed at `offset`: reserved additional information (28–30), a `break`
        /// outside an indefinite container (or where a map value is due), a wrong-type or
        /// indefinite chunk inside an indefinite string, or a two-byte simple value below 32.
        case malformed
        /// A text string is not valid UTF-8; `offset` is the first byte of the bad sequence.
        /// Each chunk of an indefinite text string must be valid on its own (RFC 8949 §3.2.3).
        case invalidUTF8
        /// The array, map or tag at `offset` nests deeper than `CBORLimits.maxDepth`.
        case depthLimitExceeded
        /// The container at `offset` has more entries than `CBORLimits.maxItemsPerContainer`.
        case containerLimitExceeded
        /// The item at `offset` is one more than `CBORLimits.maxTotalItems`.
        case itemLimitExceeded
        /// The input is longer than `CBORLimits.maxInputBytes`; `offset` is the first byte past the limit.
        case inputTooLarge
        /// The map key at `offset` equals (by value) an earlier key of the same map.
        case duplicateMapKey
        /// `decodeEmbedded` was called on an item (at `offset`) that is not tag 24 around a byte string.
        case notEmbeddedCBOR
    }

    /// What went wrong.
    public let kind: Kind
    /// Byte offset in the input (index in the original buffer) where the problem is.
    public let offset: Int
    /// For a ceiling (depth, container, items, input size): the ceiling's value, so the message can name it.
    public let limit: Int?

    /// Creates an error of `kind` at byte `offset`, naming the exceeded ceiling `limit` if there is one.
    public init(_ kind: Kind, offset: Int, limit: Int? = nil) {
        self.kind = kind
        self.offset = offset
        self.limit = limit
    }

    /// Whether two errors have the same kind at the same offset; `limit` is not compared (it only explains the error).
    public static func == (lhs: CBORDecodingError, rhs: CBORDecodingError) -> Bool {
        lhs.kind == rhs.kind && lhs.offset == rhs.offset
    }

    /// A one-line message naming the kind, the byte offset and, if known, the exceeded limit; it never includes input
    /// bytes.
    public var description: String {
        switch kind {
        case .truncated: "CBOR truncated at byte \(offset)"
        case .trailingBytes: "CBOR has trailing bytes at byte \(offset)"
        case .malformed: "malformed CBOR at byte \(offset)"
        case .invalidUTF8: "invalid UTF-8 in CBOR text string at byte \(offset)"
        case .depthLimitExceeded: "CBOR nesting limit\(named("CBORLimits.maxDepth")) exceeded at byte \(offset)"
        case .containerLimitExceeded: "CBOR container size limit\(named("CBORLimits.maxItemsPerContainer")) exceeded at byte \(offset)"
        case .itemLimitExceeded: "CBOR item count limit\(named("CBORLimits.maxTotalItems")) exceeded at byte \(offset)"
        case .inputTooLarge: "CBOR input too large\(named("CBORLimits.maxInputBytes", unit: " bytes")) (limit reached at byte \(offset))"
        case .duplicateMapKey: "duplicate CBOR map key at byte \(offset)"
        case .notEmbeddedCBOR: "CBOR item at byte \(offset) is not tag 24 around a byte string"
        }
    }

    /// " of 32 (CBORLimits.maxDepth)" when the ceiling is known.
    private func named(_ name: String, unit: String = "") -> String {
        limit.map { " of \($0)\(unit) (\(name))" } ?? ""
    }
}
