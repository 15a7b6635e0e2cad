import Foundation
import Testing
import TestSupport
import VerifyServer

@Suite("verify-server logs the start and the end of a shutdown")
struct ShutdownLogTests {
    @Test("graceful shutdown: a line when it starts, then one when the server stopped, nothing of either before")
    func shutdownLines() async throws {
        let logs = CapturedLogs()
        let before: [String] = try await ServerFixture.withServer(logger: logs.logger) { server in
            let live = try await server.client.get("/healthz")
            #expect(live.status == 200)
            return logs.messages
        }
        #expect(!before.contains { $0.contains("shutting down") || $0.contains("stopped") })
        let messages = logs.messages
        let start = messages.firstIndex { $0.hasPrefix("info verify-server shutting down") }
        let end = messages.firstIndex { $0.hasPrefix("info verify-server stopped") }
        #expect(start != nil && end != nil, "\(messages)")
        if let start, let end { #expect(start < end) }
        // The end line comes after everything the server's own services (HTTP server, purger, store) logged.
        if let end { #expect(!messages[(end + 1)...].contains { $0.hasPrefix("info ") || $0.hasPrefix("warning ") }, "\(messages[end...])") }
    }
}
