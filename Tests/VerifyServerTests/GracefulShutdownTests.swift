import LoopbackClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import VerifyServer

/// A one-shot gate a request waits at until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let openAlready = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

@Suite("verify-server graceful shutdown")
struct GracefulShutdownTests {
    @Test("shutdown stops accepting connections but finishes the verification in flight, then the service group ends")
    func drainsInFlight() async throws {
        let entered = AsyncStream<Void>.makeStream()
        let gate = Gate()
        let hooks = ServerHooks(beforeVerification: {
            entered.continuation.yield()
            await gate.wait()
        })
        let app = try await VerifyServerApp.make(configuration: AppleSample.configuration(), clock: .system, hooks: hooks,
                                                 logger: ServerFixture.quietLogger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: ServerFixture.quietLogger))
        let groupFinished = Flag()

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try await group.run()
                groupFinished.set()
            }
            let client = try LoopbackHTTPClient(port: try await app.port())
            let request = AppleSample.request()
            try await app.store.insert(request)
            let inFlight = Task { try await client.post("/v1/verify", json: AppleSample.verifyBody(request.id)) }

            var iterator = entered.stream.makeAsyncIterator()
            await iterator.next()  // the request is consumed and held before verification
            await group.triggerGracefulShutdown()

            // The listener closes while the request is still held (bounded number of probes, no clock involved).
            var refused = false
            for _ in 0 ..< 1000 where !refused {
                do {
                    _ = try await client.get("/healthz")
                    await Task.yield()
                } catch {
                    refused = true
                }
            }
            #expect(refused, "the server kept accepting connections after graceful shutdown began")
            #expect(groupFinished.isSet == false, "the server stopped before its in-flight request finished")

            gate.open()
            let response = try await inFlight.value
            #expect(response.status == 200, "\(response.text)")
            #expect(try jsonObject(response)["verified"] as? Bool == true)
            try await tasks.waitForAll()
            #expect(groupFinished.isSet)
        }
    }
}
