import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// The requests this server instance created that are neither consumed nor expired, counted in total and per client
/// address, in memory: a create is refused over `maxOutstandingRequests` or `maxOutstandingRequestsPerClient`. An API
/// key's transactions count in the total only; their per-key cap is counted in the store, across instances.
///
/// Each instance counts what it created; a request consumed through another instance sharing the store stays counted
/// here until it expires. Every operation is O(1) amortized: expired entries leave in creation order, consumed ones
/// when they reach the front of a queue.
final class OutstandingRequests: Sendable {
    /// What `admit` decided.
    enum Admission: Equatable {
        case admitted
        /// Over a cap: the whole server's (`client` false) or this client's; `retryAfter` is the whole seconds until
        /// the oldest request counted against that cap expires (at least 1).
        case refused(client: Bool, retryAfter: Int)
    }

    private struct Entry {
        let id: String
        /// Nil for a request counted in the total only (an API key's, counted in the store).
        let client: String?
        let expiresAt: Date
    }

    private struct Client {
        var count = 0
        /// This client's entries in creation order, consumed ones included until they reach the front.
        var queue = CircularBuffer<Entry>()
    }

    private struct State {
        /// Outstanding requests by ID.
        var live: [String: Entry] = [:]
        /// Every entry in creation order, consumed ones included until they reach the front.
        var queue = CircularBuffer<Entry>()
        var clients: [String: Client] = [:]
    }

    let maxTotal: Int
    let maxPerClient: Int
    private let state = NIOLockedValueBox(State())

    init(maxTotal: Int, maxPerClient: Int) {
        self.maxTotal = maxTotal
        self.maxPerClient = maxPerClient
    }

    /// Counts request `id` from `client` (nil: in the total only), expiring at `expiresAt`, unless that would pass a
    /// cap as of `now`.
    func admit(id: String, client: String?, expiresAt: Date, now: Date) -> Admission {
        state.withLockedValue { state in
            Self.sweep(&state, now: now)
            if let client, let count = state.clients[client]?.count, count >= maxPerClient,
               var held = state.clients.removeValue(forKey: client) {
                // Taken out of the dictionary so the queue is mutated in place, not copied.
                let oldest = Self.oldest(in: &held.queue, live: state.live)
                state.clients[client] = held
                return .refused(client: true, retryAfter: Self.seconds(until: oldest?.expiresAt, now: now))
            }
            if state.live.count >= maxTotal {
                var queue = state.queue
                state.queue = []
                let oldest = Self.oldest(in: &queue, live: state.live)
                state.queue = queue
                return .refused(client: false, retryAfter: Self.seconds(until: oldest?.expiresAt, now: now))
            }
            let entry = Entry(id: id, client: client, expiresAt: expiresAt)
            state.live[id] = entry
            state.queue.append(entry)
            if let client {
                state.clients[client, default: Client()].count += 1
                state.clients[client, default: Client()].queue.append(entry)
            }
            Self.compact(&state, client: client)
            return .admitted
        }
    }

    /// Stops counting request `id` (consumed, or never stored); nothing when it is not counted.
    func release(id: String) {
        state.withLockedValue { state in
            guard let entry = state.live.removeValue(forKey: id) else { return }
            Self.leave(&state, client: entry.client)
        }
    }

    /// Stops counting every request that expired at or before `now`.
    ///
    /// The queue is in creation order, which is expiry order while the clock runs forward (a clock set back leaves
    /// some entries counted a little longer, never shorter).
    private static func sweep(_ state: inout State, now: Date) {
        while let first = state.queue.first, first.expiresAt <= now {
            state.queue.removeFirst()
            if state.live.removeValue(forKey: first.id) != nil { leave(&state, client: first.client) }
        }
    }

    private static func leave(_ state: inout State, client: String?) {
        guard let client, var held = state.clients[client] else { return }
        held.count -= 1
        // A client with nothing outstanding is forgotten, its queue with it.
        state.clients[client] = held.count > 0 ? held : nil
    }

    /// The oldest entry of `queue` still outstanding; drops the consumed ones in front of it.
    private static func oldest(in queue: inout CircularBuffer<Entry>, live: [String: Entry]) -> Entry? {
        while let first = queue.first, live[first.id] == nil { queue.removeFirst() }
        return queue.first
    }

    /// Keeps the queues within twice what they count (plus slack), whatever the mix of consumed and expired entries.
    private static func compact(_ state: inout State, client: String?) {
        if state.queue.count > 2 * state.live.count + 64 {
            state.queue = CircularBuffer(state.queue.filter { [live = state.live] in live[$0.id] != nil })
        }
        if let client, let held = state.clients[client], held.queue.count > 2 * held.count + 8 {
            state.clients[client]?.queue = CircularBuffer(held.queue.filter { [live = state.live] in live[$0.id] != nil })
        }
    }

    private static func seconds(until date: Date?, now: Date) -> Int {
        guard let date else { return 1 }
        let interval = date.timeIntervalSince(now).rounded(.up)
        // Far inside Int: requestTTL is at most a day.
        return interval.isFinite ? max(1, Int(min(interval, 86_400 * 365))) : 1
    }
}
