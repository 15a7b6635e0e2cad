import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
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
        guard let response = Hex.decode(BundledSample.envelopeHex),
              let nonce = Hex.decode(BundledSample.nonceHex),
              let time = RFC3339.parseDateTime(BundledSample.verificationTime)
        else { throw UsageFailure("bundled sample is corrupt") }
        let root = try Certificate(pemEncoded: BundledSample.issuerRootPEM)
        let key = try PrivateKey(pemEncoded: BundledSample.merchantKeyPEM)
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: [root]), testMode: true)
        let verifier = try AppleAppVerifier(configuration: configuration, keys: [key])
        let session = AppleAppSession(nonce: nonce, merchantID: BundledSample.merchantID, teamID: BundledSample.teamID)
        return (verifier, response, session, time)
    }
}
