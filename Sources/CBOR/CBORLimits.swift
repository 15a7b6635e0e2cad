/// Bounds applied while decoding untrusted CBOR. Every limit is checked before any
/// allocation that depends on a declared length or count. With the defaults, decoding allocates at most about 64×
/// the input plus 16 MiB: a decoded item costs about 100 bytes, and the item ceiling caps their number (a real
/// response has a few thousand; an identifier list up to `maxItemsPerContainer` entries).
public struct CBORLimits: Sendable, Equatable {
    /// Largest accepted input, in bytes.
    public var maxInputBytes: Int
    /// Deepest nesting of arrays, maps and tags; a top-level scalar has depth 0.
    public var maxDepth: Int
    /// Most entries in one container: array elements, map pairs, or indefinite-string chunks.
    public var maxItemsPerContainer: Int
    /// Most data items in the whole input (string chunks count, `break`s do not): two full containers.
    public var maxTotalItems: Int

    /// Creates limits; the defaults are 4 MiB of input, depth 32, 65,536 entries per container and 131,072 items in
    /// total.
    public init(
        maxInputBytes: Int = 4 * 1024 * 1024,
        maxDepth: Int = 32,
        maxItemsPerContainer: Int = 65_536,
        maxTotalItems: Int = 131_072
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxItemsPerContainer = maxItemsPerContainer
        self.maxTotalItems = maxTotalItems
    }

    /// The default limits, used when a decoding call is given none.
    public static let `default` = CBORLimits()
}
