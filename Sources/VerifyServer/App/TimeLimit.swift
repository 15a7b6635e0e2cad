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

    /// `body`'s result, or `Exceeded` when `limit` passed first. Either way it returns once `body` has returned, as a
    /// task group would: when the limit passes, `body` is cancelled and its end awaited (a request body's stream has
    /// one reader, which must be gone before the server reads on). Cancelling the caller cancels `body`.
    func run<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        if let wait { return try await Self.race(limit, wait: wait, body) }
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, body: body, limit: limit)
            }
        } onCancel: {
            race.cancel()
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

/// The operation's task and its timer. Only the task resumes the caller, once, when `body` has returned; the timer
/// marks the limit as passed and cancels the task.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Scheduled<Void>?
        var exceeded = false
        var cancelled = false
    }

    private let state = NIOLockedValueBox(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, body: @escaping @Sendable () async throws -> T, limit: Duration) {
        state.withLockedValue { $0.continuation = continuation }
        let work = Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            finish(result)
        }
        let (seconds, attoseconds) = limit.components
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(
            in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        ) { self.expire() }
        // The task may have ended, or the caller been cancelled, before the task and the timer were stored.
        let (finished, stop) = state.withLockedValue { state -> (Bool, Bool) in
            guard state.continuation != nil else { return (true, false) }
            (state.work, state.timer) = (work, timer)
            return (false, state.cancelled || state.exceeded)
        }
        if finished { timer.cancel() }
        if stop { work.cancel() }
    }

    /// The limit passed: the task is cancelled, and its end reported as `Exceeded`.
    private func expire() {
        let work = state.withLockedValue { state -> Task<Void, Never>? in
            guard state.continuation != nil else { return nil }
            state.exceeded = true
            return state.work
        }
        work?.cancel()
    }

    /// The caller was cancelled: so is the task (also when it has not been stored yet).
    func cancel() {
        let work = state.withLockedValue { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }

    private func finish(_ result: Result<T, any Error>) {
        let (continuation, timer, exceeded) = state.withLockedValue { state in
            defer { (state.continuation, state.work, state.timer) = (nil, nil, nil) }
            return (state.continuation, state.timer, state.exceeded)
        }
        timer?.cancel()
        continuation?.resume(with: exceeded ? .failure(TimeLimit.Exceeded()) : result)
    }
}
