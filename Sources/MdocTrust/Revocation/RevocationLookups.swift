import CryptoCore

/// The revocation lists one verification looked up and found missing or due, handed explicitly from its caller
/// through the checks to the revocation source, so the caller can fetch them (`RevocationFetcher.resolving(_:)`). The
/// verification leaves here how to finish once they are fetched: its revocation checks run again on what the source
/// holds then, and nothing else runs twice. A source without a network side (files) records nothing.
public final class RevocationLookups: Sendable {
    /// A list a source could not answer from what it holds: its kind (the source's own name for it) and URI.
    public struct Wanted: Hashable, Sendable {
        /// The source's name for the list's kind, e.g. `crl` or `statusToken`.
        public let kind: String
        /// Where the list is published.
        public let uri: String

        /// Creates a wanted list of `kind` at `uri`.
        public init(kind: String, uri: String) {
            self.kind = kind
            self.uri = uri
        }
    }

    private let wanted = Locked<[Wanted: Int]>([:])
    private let finish = Locked<(@Sendable () -> any Sendable)?>(nil)

    /// Creates an empty record.
    public init() {}

    /// Notes `list` as wanted; `generation` is the source's version of its cache entry when it looked (the lowest
    /// noted wins, so a fetch that completed since is not repeated).
    public func want(_ list: Wanted, generation: Int) {
        wanted.withLockedValue { $0[list] = min($0[list] ?? generation, generation) }
    }

    /// Every list noted, with the generation seen.
    public var wants: [Wanted: Int] { wanted.withLockedValue { $0 } }

    /// Leaves how to finish the verification that noted these lists once they are fetched (the verifier's own
    /// continuation: its revocation checks on what the source holds then). A later call replaces an earlier one.
    package func deferring(_ finish: @escaping @Sendable () -> any Sendable) {
        self.finish.withLockedValue { $0 = finish }
    }

    /// The verification finished on what the source holds now, or nil when none was left to finish (nothing was
    /// noted, it was finished already, or the result is not an `R`). Finishing lets go of what the verification kept
    /// here (its documents among it).
    public func finished<R>(as type: R.Type = R.self) -> R? {
        let finish = self.finish.withLockedValue { finish in
            defer { finish = nil }
            return finish
        }
        return finish?() as? R
    }
}
