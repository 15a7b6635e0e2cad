import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a wallet response.",
        subcommands: FormatCommands.verifyCommands
    )

    struct AppleApp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-app",
            abstract: "Verify an Apple Verify with Wallet in-app response (PKIdentityDocument.encryptedData)."
        )

        @Option(help: "The encrypted response: raw CBOR, or a text file of hex, base64 or base64url.")
        var response: String

        @Option(name: .customLong("private-key"), help: "Merchant decryption key, PEM (SEC1 or PKCS#8); repeatable for rotation.")
        var privateKeys: [String]

        @Option(help: "session.json written by `request apple-app` (the nonce, merchant and team IDs, request); instead of the three options below.")
        var session: String?

        @Option(name: .customLong("merchant-id"), help: "Without --session: merchant identifier used in the request.")
        var merchantID: String?

        @Option(name: .customLong("team-id"), help: "Without --session: Apple Developer Team ID of the requesting app.")
        var teamID: String?

        @Option(help: "Without --session: the nonce sent in the request: base64url as verify-server returns it, or hex.")
        var nonce: String?

        @Flag(name: .customLong("allow-test-key"), help: "Test mode: accept Apple's published test key (Simulator, sample). Reports say assurance: test.")
        var allowTestKey = false

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let response = try InputFiles.cbor(self.response, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
                let keys = try privateKeys.map(InputFiles.privateKey)
                let session = try appleSession()
                let verifier: AppleAppVerifier
                let (configuration, revocation) = try options.configuration(testMode: allowTestKey)
                do {
                    verifier = try AppleAppVerifier(configuration: configuration, keys: keys)
                } catch let error as VerificationError {
                    let hint = error.code == .envelopeTestKey
                        ? "; pass --allow-test-key to use it (test mode: the report says assurance: test)" : ""
                    throw UsageFailure("\(error.code.rawValue): \(error.message)\(hint)")
                }
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { lookups in verifier.verify(encryptedData: response, session: session, at: time, noting: lookups) }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty, offersTestKey: true)
            }
        }

        /// The session: from --session, or from --nonce, --merchant-id and --team-id (never a mix).
        func appleSession() throws -> AppleAppSession {
            guard let session else {
                guard let nonce, let merchantID, let teamID else {
                    throw UsageFailure("pass --nonce, --merchant-id and --team-id (or --session with the session.json `request apple-app` wrote)")
                }
                return AppleAppSession(nonce: try InputFiles.nonce(nonce, what: "--nonce").bytes, merchantID: merchantID, teamID: teamID,
                                       request: try InputFiles.request(options.request))
            }
            if nonce != nil { throw UsageFailure("--nonce is kept in the session (\(session)); leave out --nonce") }
            let kept = try SessionFile.read(session, expected: .appleApp)
            return AppleAppSession(nonce: try kept.appleNonce(),
                                   merchantID: try SessionValues.one(merchantID, flag: "--merchant-id", kept: kept.merchantID, session: session),
                                   teamID: try SessionValues.one(teamID, flag: "--team-id", kept: kept.teamID, session: session),
                                   request: try kept.policy(requestPath: options.request))
        }
    }

    struct DeviceResponse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "device-response",
            abstract: "Verify a bare ISO/IEC 18013-5 DeviceResponse against a session transcript you supply."
        )

        @Option(name: .customLong("device-response"), help: "The DeviceResponse: raw CBOR, or hex/base64 text.")
        var deviceResponse: String

        @Option(name: .customLong("session-transcript"), help: "SessionTranscript CBOR (untagged array or tag-24 SessionTranscriptBytes), raw or hex/base64 text.")
        var sessionTranscript: String

        @Option(name: .customLong("reader-private-key"), help: "The reader's ephemeral private key (PEM), needed for deviceMac.")
        var readerPrivateKey: String?

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let response = try InputFiles.cbor(deviceResponse, what: "device response", maxBytes: InputFiles.maxResponseFileBytes)
                let transcriptBytes = try InputFiles.cbor(sessionTranscript, what: "session transcript")
                let transcript: SessionTranscript
                do {
                    transcript = try SessionTranscript(encoded: transcriptBytes)
                } catch {
                    throw UsageFailure("session transcript at \(sessionTranscript): \(error)")
                }
                let readerKey = try readerPrivateKey.map(InputFiles.privateKey)
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = DeviceResponseVerifier(configuration: configuration)
                let request = try InputFiles.request(options.request)
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { lookups in
                    verifier.verify(deviceResponse: response, transcript: transcript, readerKey: readerKey, request: request, at: time,
                                    noting: lookups)
                }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
            }
        }
    }
}
