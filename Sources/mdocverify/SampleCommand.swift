import ArgumentParser
import MdocTesting
import Verifier

/// Verifies Apple's signed sample, embedded in the binary, in test mode at 2022-06-01.
struct Sample: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify the bundled Apple sample response (test mode, at 2022-06-01T00:00:00Z, trusting its test IACA)."
    )

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        try runReportingExit {
            // The benchmarks' Apple case: the sample's verifier, envelope, session and time.
            ReportPrinter.emit(try PerformanceCase.make(.apple).verify(), json: json)
        }
    }
}
