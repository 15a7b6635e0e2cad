import ArgumentParser
import Foundation
import Mdoc
import Verifier

extension Verify {
    struct AnnexC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annex-c",
            abstract: "Verify an ISO/IEC 18013-7 Annex C response (org-iso-mdoc over the Digital Credentials API)."
        )

        @Option(help: "DigitalCredential.data as JSON ({\"response\": \"…\"}) or just the base64url response string.")
        var response: String

        @Option(name: .customLong("encryption-info"), help: "The exact encryptionInfo string sent in the request (base64url).")
        var encryptionInfo: String

        @Option(help: "The origin of the page that made the request, e.g. https://shop.example (no trailing slash).")
        var origin: String

        @Option(name: .customLong("private-key"), help: "The request's recipient private key, PEM (SEC1 or PKCS#8).")
        var privateKey: String

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.readText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
                let session = AnnexCSession(privateKey: try InputFiles.privateKey(privateKey), encryptionInfo: encryptionInfo,
                                            origin: origin, request: try InputFiles.request(options.request))
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = AnnexCVerifier(configuration: configuration)
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { verifier.verify(response: text, session: session, at: time) }
                return ReportPrinter.emit(report, json: options.json)
            }
        }
    }
}
