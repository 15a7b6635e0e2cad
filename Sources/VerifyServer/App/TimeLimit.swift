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
        let race = Race<T>()
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

/// The operation's task and its clock. Only the task resumes the caller, once, when `body` has returned; the clock
/// marks the limit as passed and cancels the task.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var stopClock: (@Sendable () -> Void)?
        var exceeded = false
        var cancelled = false
    }

    private let state = NIOLockedValueBox(State())

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
        // The task may have ended, or the caller been cancelled, before the task and the clock were stored.
        let (finished, stop) = state.withLockedValue { state -> (Bool, Bool) in
            guard state.continuation != nil else { return (true, false) }
            (state.work, state.stopClock) = (work, stopClock)
            return (false, state.cancelled || state.exceeded)
        }
        if finished { stopClock() }
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
        let (continuation, stopClock, exceeded) = state.withLockedValue { state in
            defer { (state.continuation, state.work, state.stopClock) = (nil, nil, nil) }
            return (state.continuation, state.stopClock, state.exceeded)
        }
        stopClock?()
        continuation?.resume(with: exceeded ? .failure(TimeLimit.Exceeded()) : result)
    }
}
