import Foundation

/// The server's wall clock for request expiry; injectable so tests move time instead of waiting.
public struct ServerClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    public static let system = ServerClock { Date() }
}
