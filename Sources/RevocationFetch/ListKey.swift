import MdocTrust

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

extension ListKey {
    /// The key as a verification's `RevocationLookups` notes it.
    var wanted: RevocationLookups.Wanted { RevocationLookups.Wanted(kind: kind.rawValue, uri: uri) }
}

/// The lists one verification needs fetched (for `RevocationFetcher.fetch(_:)`), with the fetch generation it saw.
public struct PendingFetches: Sendable {
    let seen: [ListKey: Int]

    /// The lists `lookups` noted, as this fetcher's keys (a kind it does not know is not its to fetch).
    public init(_ lookups: RevocationLookups) {
        var seen: [ListKey: Int] = [:]
        for (wanted, generation) in lookups.wants {
            guard let kind = ListKey.Kind(rawValue: wanted.kind) else { continue }
            seen[ListKey(kind, wanted.uri)] = generation
        }
        self.seen = seen
    }

    /// Whether the verification needs nothing fetched.
    public var isEmpty: Bool { seen.isEmpty }
}
