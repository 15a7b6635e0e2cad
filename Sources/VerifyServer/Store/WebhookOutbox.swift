import Foundation

/// One webhook event in the request store's outbox: queued with the transaction's result, delivered by whichever
/// instance leases it first, kept until a 2xx, a 410 or the last attempt (at least once; one event per transaction).
public struct WebhookEvent: Sendable, Equatable {
    /// The `webhook-id` every attempt carries (`msg_` and the transaction's ID).
    public var id: String
    /// The answered transaction.
    public var requestId: String
    /// The event's JSON text, signed as it is.
    public var body: String
    /// How many attempts failed so far.
    public var attempts: Int
    /// When the event was queued.
    public var createdAt: Date
    /// Where it goes: the transaction's own `webhookURL`; nil for the configured `webhookURL`.
    public var url: String?
    /// Why the stored body could not be read (it was sealed with another state key); the sender then counts a failed
    /// attempt without posting.
    var unreadable: String?

    /// Creates an event not yet attempted.
    public init(id: String, requestId: String, body: String, attempts: Int = 0, createdAt: Date) {
        self.id = id
        self.requestId = requestId
        self.body = body
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// What waits in the outbox: for `/metrics` and `/readyz`.
public struct WebhookBacklog: Sendable, Equatable {
    /// Events not yet delivered or given up.
    public var count: Int
    /// When the oldest of them was queued; nil when none waits.
    public var oldest: Date?

    /// Creates a backlog figure.
    public init(count: Int, oldest: Date?) {
        self.count = count
        self.oldest = oldest
    }
}
