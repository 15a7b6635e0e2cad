import NIOConcurrencyHelpers


/// The port the server bound, for callers waiting for it to listen.
final class ListeningPort: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case listening(Int)
        case finished
    }

    struct NotListening: Error, CustomStringConvertible {
        var description: String { "the server stopped before it listened" }
    }

    private let state = NIOLockedValueBox(State.waiting([]))

    func set(_ port: Int) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .listening(port)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    func finish() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .finished
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: NotListening()) }
    }

    /// The bound port, once the server listens.
    var port: Int? {
        state.withLockedValue { state in
            if case .listening(let port) = state { return port }
            return nil
        }
    }

    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let immediate: Result<Int, any Error>? = state.withLockedValue { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .listening(let port): return .success(port)
                case .finished: return .failure(NotListening())
                }
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }
}
