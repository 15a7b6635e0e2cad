import CryptoCore


/// One list the fetcher keeps: a status list or identifier list token, or a CRL, by the URI it is fetched from.
public struct ListKey: Hashable, Sendable, CustomStringConvertible {
    /// The kind of list a key names.
    public enum Kind: String, Sendable {
        /// A status list or identifier list token.
        case statusToken = "status"
        /// A certificate revocation list.
        case crl
    }

    /// The kind of list.
    public let kind: Kind
    /// The URI the list is fetched from.
    public let uri: String

    /// Creates the key of the list of `kind` at `uri`.
    public init(_ kind: Kind, _ uri: String) {
        self.kind = kind
        self.uri = uri
    }

    /// The kind's raw value and the URI, separated by a space.
    public var description: String { "\(kind.rawValue) \(uri)" }
}

/// The lists a verification looked up and found missing or due, with the fetch generation it saw; filled through a
/// task-local while the synchronous checks run, then fetched before the verification runs again.
final class RevocationWants: Sendable {
    @TaskLocal static var current: RevocationWants?

    private let wanted = Locked<[ListKey: Int]>([:])

    var seen: [ListKey: Int] { wanted.withLockedValue { $0 } }

    func want(_ key: ListKey, generation: Int) {
        wanted.withLockedValue { $0[key] = min($0[key] ?? generation, generation) }
    }
}

/// The lists one verification needs fetched (`RevocationFetcher.noting(_:)`).
public struct PendingFetches: Sendable {
    let seen: [ListKey: Int]
    /// Whether the verification needs nothing fetched.
    public var isEmpty: Bool { seen.isEmpty }
}
