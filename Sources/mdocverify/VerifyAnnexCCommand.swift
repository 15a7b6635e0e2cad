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

        @Option(name: .customLong("encryption-info"), help: "The exact encryptionInfo string sent in the request (base64url), or a file holding it (encryption-info.txt from `request annex-c`). A value that is not an encryptionInfo but names an existing file is read as the file; surrounding whitespace is dropped.")
        var encryptionInfo: String

        @Option(help: "The origin of the page that made the request, e.g. https://shop.example (no trailing slash).")
        var origin: String

        @Option(name: .customLong("private-key"), help: "The request's recipient private key, PEM (SEC1 or PKCS#8).")
        var privateKey: String

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.responseText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes,
                                                       expected: "DigitalCredential.data as JSON ({\"response\": \"…\"}) or the base64url response string")
                let session = AnnexCSession(privateKey: try InputFiles.privateKey(privateKey), encryptionInfo: try Self.encryptionInfo(encryptionInfo),
                                            origin: origin, request: try InputFiles.request(options.request))
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = AnnexCVerifier(configuration: configuration)
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { verifier.verify(response: text, session: session, at: time) }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
            }
        }

        /// The encryptionInfo `value` stands for: itself when it decodes as one, else the contents of the file it
        /// names. A value that is neither, and cannot be base64url (it has a `/` or `.`), is a usage error; any
        /// other value is used as given, so a wrong one is `hpke.open_failed` as before.
        static func encryptionInfo(_ value: String) throws -> String {
            if (try? AnnexCEncryptionInfo(base64URL: value)) != nil { return value }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
                return try InputFiles.readText(value, what: "encryptionInfo", maxBytes: 64 * 1024)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if value.contains("/") || value.contains(".") {
                throw UsageFailure("--encryption-info \(InputQuote.short(value)) is neither a base64url encryptionInfo nor an existing file; "
                                   + "pass the encryptionInfo string or the encryption-info.txt that `request annex-c` wrote")
            }
            return value
        }
    }
}
