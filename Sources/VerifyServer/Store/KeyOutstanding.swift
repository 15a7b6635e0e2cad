import Foundation

/// An API key's outstanding transactions: `maxOutstandingRequestsPerKey` is checked against it.
public struct KeyOutstanding: Sendable, Equatable {
    /// Transactions neither consumed nor expired.
    public var count: Int
    /// When the first of them expires; nil when there is none.
    public var earliestExpiry: Date?

    /// Creates a count.
    public init(count: Int, earliestExpiry: Date?) {
        self.count = count
        self.earliestExpiry = earliestExpiry
    }
}
