import ArgumentParser
import Foundation
import Mdoc
import MdocModel
import Verifier

extension OpenID4VPSession.ResponseMode: ExpressibleByArgument {}
extension OpenID4VPWebRequest.ClientIDPrefix: ExpressibleByArgument {}
extension OpenID4VPProfile: ExpressibleByArgument {}

extension Request {
    struct OpenID4VP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp",
            abstract: "Create an OpenID4VP 1.0 request for navigator.credentials.get (openid4vp-v1-unsigned, or -signed with a reader identity).",
            discussion: """
                Writes to --out: dc-request.json ({"protocol", "data"}: one entry of the page's digital.requests), and what the \
                server keeps until the response arrives: session.json (mode 0600: the encryption key, origin, nonce, response \
                mode, credential query ids, the profile and the request) and request.json. `verify openid4vp --session session.json` \
                checks the answer, under the profile the request was made with. --profile haip (HAIP 1.0) signs the request with an \
                x509_hash client identifier (it needs --reader-cert and --reader-key), asks for dc_api.jwt and has `verify openid4vp` \
                refuse an answer that does not follow HAIP (haip.* codes). Existing files are not overwritten.
                """
        )

        @Option(help: "The origin of the page that will call navigator.credentials.get, e.g. https://shop.example.")
        var origin: String

        @OptionGroup var files: RequestFiles

        @Option(name: .customLong("response-mode"), help: "dc_api.jwt (encrypted to a fresh key; the default) or dc_api (plain).")
        var responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT

        @OptionGroup var reader: ReaderOptions

        @Option(help: "default, or haip: HAIP 1.0 (a signed x509_hash request, dc_api.jwt, and HAIP's answer rules at verification).")
        var profile: OpenID4VPProfile = .default

        @Option(name: .customLong("client-id-prefix"), help: "Signed requests: x509_hash (the default) or x509_san_dns.")
        var clientIDPrefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash

        @Option(name: .customLong("trust"), help: "Trust anchor file or directory the request's allowedIssuers are narrowed to (DCQL trusted_authorities); repeatable. Default: the embedded production bundle.")
        var trust: [String] = []

        func run() throws {
            try runReportingExit {
                let policy = try files.policy()
                let created: OpenID4VPWebRequest
                do {
                    created = try OpenID4VPWebRequest.create(origin: origin, request: policy, responseMode: responseMode,
                                                             reader: try reader.identity(), clientIDPrefix: clientIDPrefix,
                                                             trustedAuthorities: try RequestAllowList.narrowed(policy, trust: trust) ?? [:],
                                                             profile: profile)
                } catch let error as VerificationError {
                    throw UsageFailure("\(error.code.rawValue): \(error.message)")
                }
                let dcRequest = JSONValue.object([("protocol", .string(created.protocolIdentifier)), ("data", created.data)])
                let session = SessionFile(format: .openID4VP, state: try OpenID4VPFlow.state(created.session), request: policy)
                try RequestOutputFiles.writeRequest("dc-request.json", dcRequest, session: session, policy: policy, into: files.out)
                return .verified
            }
        }
    }
}

extension Verify {
    struct OpenID4VP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp",
            abstract: "Verify an OpenID4VP response over the Digital Credentials API (mso_mdoc; dc_api.jwt or dc_api)."
        )

        @Option(help: "What the page received: the DC API result {\"protocol\", \"data\"}, its data, or the compact JWE.")
        var response: String

        @Option(help: "session.json written by `request openid4vp` (the encryption key, origin, nonce, response mode, request).")
        var session: String

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.responseText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes,
                                                       expected: "what the page received: {\"protocol\", \"data\"}, its data, or the compact JWE")
                let kept = try SessionFile.read(session, expected: .openID4VP)
                let loaded = try kept.openID4VP(request: try kept.policy(requestPath: options.request))
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = OpenID4VPVerifier(configuration: configuration)
                let time = try InputFiles.time(options.at)
                let report = revocation.verify { lookups in verifier.verify(response: text, session: loaded, at: time, noting: lookups) }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
            }
        }
    }
}

/// The request policy as written beside a request (request.json).
enum PolicyJSON {
    static func encode(_ policy: RequestPolicy) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(policy) + Data("\n".utf8)
        } catch {
            throw UsageFailure("cannot encode the request policy: \(error)")
        }
    }
}
