import Foundation

/// The server's wall clock for request expiry; injectable so tests move time instead of waiting.
public struct ServerClock: Sendable {
    /// Returns the current time.
    public let now: @Sendable () -> Date

    /// Creates a clock that reads the time from `now`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock (`Date()`).
    public static let system = ServerClock { Date() }
}
