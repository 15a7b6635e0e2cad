import ArgumentParser
import Foundation
import Mdoc
import MdocModel
import Verifier

extension Verify {
    struct AnnexC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annex-c",
            abstract: "Verify an ISO/IEC 18013-7 Annex C response (org-iso-mdoc over the Digital Credentials API)."
        )

        @Option(help: "DigitalCredential.data as JSON ({\"response\": \"…\"}) or just the base64url response string.")
        var response: String

        @Option(help: "session.json written by `request annex-c` (the recipient key, encryptionInfo, origin and request); instead of the three options below.")
        var session: String?

        @Option(name: .customLong("encryption-info"), help: "Without --session: the exact encryptionInfo string sent in the request (base64url), or a file holding it (or data.json). A value that is not an encryptionInfo but names an existing file is read as the file; surrounding whitespace is dropped.")
        var encryptionInfo: String?

        @Option(help: "Without --session: the origin of the page that made the request, e.g. https://shop.example (no trailing slash).")
        var origin: String?

        @Option(name: .customLong("private-key"), help: "Without --session: the request's recipient private key, PEM (SEC1 or PKCS#8).")
        var privateKey: String?

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.responseText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes,
                                                       expected: "DigitalCredential.data as JSON ({\"response\": \"…\"}) or the base64url response string")
                let session = try self.annexCSession()
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = AnnexCVerifier(configuration: configuration)
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { lookups in verifier.verify(response: text, session: session, at: time, noting: lookups) }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
            }
        }

        /// The session: from --session, or from --encryption-info, --origin and --private-key (never a mix).
        func annexCSession() throws -> AnnexCSession {
            if let session {
                let given = [("--encryption-info", encryptionInfo), ("--origin", origin), ("--private-key", privateKey)]
                if let flag = given.first(where: { $0.1 != nil })?.0 {
                    throw UsageFailure("\(flag) is kept in the session (\(session)); leave out \(flag)")
                }
                let kept = try SessionFile.read(session, expected: .annexC)
                return try kept.annexC(request: try kept.policy(requestPath: options.request))
            }
            guard let encryptionInfo, let origin, let privateKey else {
                throw UsageFailure("pass --session with the session.json `request annex-c` wrote "
                                   + "(or all of --encryption-info, --origin and --private-key)")
            }
            return AnnexCSession(privateKey: try InputFiles.privateKey(privateKey), encryptionInfo: try Self.encryptionInfo(encryptionInfo),
                                 origin: origin, request: try InputFiles.request(options.request))
        }

        /// The encryptionInfo `value` stands for: itself when it decodes as one, else the contents of the file it
        /// names. A value that is neither, and cannot be base64url (it has a `/` or `.`), is a usage error; any
        /// other value is used as given, so a wrong one is `hpke.open_failed` as before.
        static func encryptionInfo(_ value: String) throws -> String {
            if (try? AnnexCEncryptionInfo(base64URL: value)) != nil { return value }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
                return try InputFiles.encryptionInfo(fromFile: value)
            }
            if value.contains("/") || value.contains(".") {
                throw UsageFailure("--encryption-info \(InputQuote.short(value)) is neither a base64url encryptionInfo nor an existing file; "
                                   + "pass the encryptionInfo string or a file holding it (or --session with the session.json `request annex-c` wrote)")
            }
            return value
        }
    }
}
