import Foundation
import MdocTesting
import MdocTestingServer
import Testing
import TestSupport

/// The fetcher's log lines carry the list URI (from the MSO) and the failure detail; control and bidi characters in
/// them are escaped, so a log viewer's terminal cannot be driven by a response.
@Suite("Fetch log escaping")
struct FetchLogEscapingTests {
    @Test("a status URI with ESC, CR and a bidi override is logged escaped")
    func escapedURI() async throws {
        let server = try await RevocationListServer.start()
        let uri = "http://169.254.169.254/\u{1B}[2J\r\u{202E}list"
        let log = CapturedLogs()
        _ = try await FetchDestinationTests.verify(uri: uri, allow: [], server: server, log: log)
        let lines = log.messages.filter { $0.contains("revocation list fetch") }
        #expect(!lines.isEmpty, "\(log.messages)")
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" }, "\(line.debugDescription)")
            #expect(line.contains(#"169.254.169.254/\u{1B}[2J\r\u{202E}list"#), "\(line)")
        }
        await server.stop()
    }
}
