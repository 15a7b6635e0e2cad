import ArgumentParser
import CBOR
import Foundation
import MdocConformance
import Verifier

@main
struct MdocVerify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdocverify",
        abstract: "Verify phone-wallet ID responses (Apple Verify with Wallet, ISO 18013-5/-7 mdoc).",
        discussion: """
            Exit codes: 0 verified, 1 rejected (the input was read and a check failed), 2 usage error or an \
            unreadable local file or key.
            """,
        version: ProductVersion.description,
        subcommands: [Sample.self, Verify.self, Request.self, Inspect.self, Bench.self, Simulate.self, Keygen.self, Trust.self, Conformance.self]
    )

    /// swift-argument-parser exits 64 on usage errors; this tool promises 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// The tool's exit codes.
enum ExitStatus: Int32 {
    case verified = 0
    case rejected = 1
    case usage = 2
}

/// A local problem (unreadable file, bad key, bad argument value): exit 2 with a message.
struct UsageFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ParsableCommand {
    /// Runs `body`, mapping local failures to exit 2 and the verdict to 0/1.
    func runReportingExit(_ body: () throws -> ExitStatus) throws {
        let status: ExitStatus
        do {
            status = try body()
        } catch let failure as UsageFailure {
            // A failure may name a VICAL provider, a certificate or a path: escaped like every text output.
            FileHandle.standardError.write(Data("error: \(TerminalText.escaped(failure.description))\n".utf8))
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch let failure as ConformanceError {
            FileHandle.standardError.write(Data("error: \(TerminalText.escaped(failure.description))\n".utf8))
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if status != .verified { throw ExitCode(status.rawValue) }
    }
}
