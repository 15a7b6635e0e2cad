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

    /// `body`'s result, or `Exceeded` when `limit` passed first; when `limit` passes, `body` is cancelled. Cancelling
    /// the caller cancels `body`.
    ///
    /// By default it returns once `body` has returned, as a task group would (a request body's stream has one reader,
    /// which must be gone before the server reads on). With `waitingForEnd` false it returns `Exceeded` as soon as
    /// `limit` passes and leaves `body` to end on its own: a store call whose database hangs cannot be abandoned
    /// (the query is already sent), so the store's own deadline makes sure it no longer acts by then.
    func run<T: Sendable>(_ limit: Duration, waitingForEnd: Bool = true,
                          _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race<T>(waitsForEnd: waitingForEnd)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, body: body) { expire in arm(limit, expire) }
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// Starts the limit's clock, calling `expire` when it runs out; returns how to stop it.
    private func arm(_ limit: Duration, _ expire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        if let wait {
            let waiter = Task {
                if (try? await wait(limit)) != nil { expire() }
            }
            return { waiter.cancel() }
        }
        let (seconds, attoseconds) = limit.components
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(
            in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        ) { expire() }
        return { timer.cancel() }
    }
}

/// The operation's task and its clock. The task resumes the caller when `body` has returned; the clock marks the
/// limit as passed and cancels the task, and resumes the caller itself when it does not wait for the task's end.
/// Whichever comes first resumes it, once.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var stopClock: (@Sendable () -> Void)?
        var exceeded = false
        var cancelled = false
        var ended = false
    }

    private let state = NIOLockedValueBox(State())
    private let waitsForEnd: Bool

    init(waitsForEnd: Bool) { self.waitsForEnd = waitsForEnd }

    func start(_ continuation: CheckedContinuation<T, any Error>, body: @escaping @Sendable () async throws -> T,
               arm: (@escaping @Sendable () -> Void) -> @Sendable () -> Void) {
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
        let stopClock = arm { self.expire() }
        // The task may have ended, or the caller been cancelled, or the limit passed, before the task and the clock
        // were stored.
        let (ended, stop) = state.withLockedValue { state -> (Bool, Bool) in
            guard !state.ended else { return (true, false) }
            (state.work, state.stopClock) = (work, stopClock)
            return (false, state.cancelled || state.exceeded)
        }
        if ended { stopClock() }
        if stop { work.cancel() }
    }

    /// The limit passed: the task is cancelled, and the caller gets `Exceeded` (at once, or when the task ends).
    private func expire() {
        let (work, abandoned) = state.withLockedValue { state -> (Task<Void, Never>?, CheckedContinuation<T, any Error>?) in
            guard state.continuation != nil else { return (nil, nil) }
            state.exceeded = true
            guard !waitsForEnd else { return (state.work, nil) }
            defer { state.continuation = nil }
            return (state.work, state.continuation)
        }
        // The caller first: cancellation handlers run synchronously, inside `cancel()`.
        abandoned?.resume(throwing: TimeLimit.Exceeded())
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
        let (continuation, stopClock, exceeded) = state.withLockedValue { state in
            state.ended = true
            defer { (state.continuation, state.work, state.stopClock) = (nil, nil, nil) }
            return (state.continuation, state.stopClock, state.exceeded)
        }
        stopClock?()
        continuation?.resume(with: exceeded ? .failure(TimeLimit.Exceeded()) : result)
    }
}
