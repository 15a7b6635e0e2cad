import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
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
            let (verifier, response, session, time) = try Self.prepare()
            return ReportPrinter.emit(verifier.verify(encryptedData: response, session: session, at: time), json: json)
        }
    }

    /// The verifier and inputs for the bundled sample; shared with `bench`.
    static func prepare() throws -> (AppleAppVerifier, [UInt8], AppleAppSession, Date) {
        let sample = AppleSignedSample.self
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: [try sample.issuerRoot()]), testMode: true)
        let verifier = try AppleAppVerifier(configuration: configuration, keys: [try sample.merchantKey()])
        let session = AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID)
        return (verifier, sample.envelope, session, sample.time)
    }
}
