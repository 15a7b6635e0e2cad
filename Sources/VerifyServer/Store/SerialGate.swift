import NIOConcurrencyHelpers
import NIOCore

/// Runs async operations one at a time, in the order they arrive.
final class SerialGate: Sendable {
    private struct State {
        var busy = false
        var waiters = CircularBuffer<CheckedContinuation<Void, Never>>()
    }

    private let state = NIOLockedValueBox(State())

    /// Waits for the operations before it, then runs `body`; the next one starts when it returns or throws.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLockedValue { state in
                if state.busy {
                    state.waiters.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        // The gate stays busy and passes straight to the next waiter, if any.
        let next = state.withLockedValue { state in
            if state.waiters.isEmpty {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
