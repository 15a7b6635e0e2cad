@testable import PostgresNIO
import Testing
@testable import VerifyServer

/// Found by the chaos soak (Benchmarks/chaos, issue 40): a consume in flight during PostgreSQL's fast shutdown failed
/// with a closed connection whose underlying error was the server's FATAL, and the log line said only "Generic
/// description". PostgresNIO's internal constructors (debug builds are testable) make that error without a shutdown.
@Suite("PostgreSQL errors nested in connection errors name their SQLSTATE and message")
struct PostgresErrorNamingTests {
    static let fatal = PSQLError.server(.init(fields: [
        .severity: "FATAL", .sqlState: "57P01", .message: "terminating connection due to administrator command",
    ]))

    @Test("a connection closed on the server's FATAL (a fast shutdown) names it, not \"Generic description\"")
    func closedOnServerError() {
        for error in [PSQLError.clientClosedConnection(underlying: Self.fatal), .serverClosedConnection(underlying: Self.fatal)] {
            let text = PostgresRequestStore.describing(error)
            #expect(text.contains("SQLSTATE 57P01: terminating connection due to administrator command"), "\(text)")
            #expect(!text.contains("Generic description"), "\(text)")
        }
    }

    @Test("a connection closed without a cause says which way it closed")
    func closedWithoutCause() {
        let text = PostgresRequestStore.describing(PSQLError.clientClosedConnection(underlying: nil))
        #expect(text == "PostgreSQL connection clientClosedConnection", "\(text)")
    }
}
