import Synchronization

/// One list the fetcher keeps: a status list or identifier list token, or a CRL, by the URI it is fetched from.
public struct ListKey: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case statusToken = "status"
        case crl
    }

    public let kind: Kind
    public let uri: String

    public init(_ kind: Kind, _ uri: String) {
        self.kind = kind
        self.uri = uri
    }

    public var description: String { "\(kind.rawValue) \(uri)" }
}

/// The lists a verification looked up and found missing or due, with the fetch generation it saw; filled through a
/// task-local while the synchronous checks run, then fetched before the verification runs again.
final class RevocationWants: Sendable {
    @TaskLocal static var current: RevocationWants?

    private let wanted = Mutex<[ListKey: Int]>([:])

    var seen: [ListKey: Int] { wanted.withLock { $0 } }

    func want(_ key: ListKey, generation: Int) {
        wanted.withLock { $0[key] = min($0[key] ?? generation, generation) }
    }
}

/// The lists one verification needs fetched (`RevocationFetcher.noting(_:)`).
public struct PendingFetches: Sendable {
    let seen: [ListKey: Int]
    public var isEmpty: Bool { seen.isEmpty }
}
