import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Bounds how long an operation may take: reading a request body, a store operation.
///
/// By default the limit is a timer on an event loop, cancelled as soon as the operation ends. Every verify call is
/// bounded twice, so the cost matters: a sleeping Swift task per limit went through Dispatch's timer thread and stayed
/// queued until its full duration passed, even after the operation had ended.
struct TimeLimit: Sendable {
    /// The operation did not end within the limit (it is cancelled).
    struct Exceeded: Error {}

    /// How to wait for the limit to pass instead of the timer; tests pass one that returns at once.
    let wait: (@Sendable (Duration) async throws -> Void)?

    /// `body`'s result, or `Exceeded` once `limit` passes first. Cancelling the caller cancels `body`.
    func run<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        if let wait { return try await Self.race(limit, wait: wait, body) }
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, body: body, limit: limit)
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// The operation against a waiting task, for injected waits.
    private static func race<T: Sendable>(_ limit: Duration, wait: @escaping @Sendable (Duration) async throws -> Void,
                                          _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await wait(limit)
                throw Exceeded()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw Exceeded() }
            return first
        }
    }
}

/// The operation's task and its timer; whichever ends first resumes the caller once, and the other is cancelled.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Scheduled<Void>?
        var outcome: Result<T, any Error>?
    }

    private let state = NIOLockedValueBox(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, body: @escaping @Sendable () async throws -> T, limit: Duration) {
        // Cancelled before it started: answer at once.
        if let early = state.withLockedValue({ state -> Result<T, any Error>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }) {
            continuation.resume(with: early)
            return
        }
        let work = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
        }
        let (seconds, attoseconds) = limit.components
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(
            in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        ) { self.finish(.failure(TimeLimit.Exceeded())) }
        let finished = state.withLockedValue { state -> Bool in
            guard state.outcome == nil else { return true }
            (state.work, state.timer) = (work, timer)
            return false
        }
        if finished {
            timer.cancel()
            work.cancel()
        }
    }

    func finish(_ outcome: Result<T, any Error>) {
        let taken = state.withLockedValue { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Scheduled<Void>?)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { (state.continuation, state.work, state.timer) = (nil, nil, nil) }
            return (state.continuation, state.work, state.timer)
        }
        guard let (continuation, work, timer) = taken else { return }
        timer?.cancel()
        if case .failure = outcome { work?.cancel() }
        continuation?.resume(with: outcome)
    }
}
