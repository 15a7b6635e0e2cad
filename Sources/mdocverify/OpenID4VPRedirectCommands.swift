import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocConformance
import MdocModel
import MdocTesting
import Verifier

extension OpenID4VPRedirectSession.ResponseMode: ExpressibleByArgument {}

extension Request {
    struct OpenID4VPRedirect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp-redirect",
            abstract: "Create an OpenID4VP 1.0 request by reference (QR code or link: request_uri, direct_post.jwt), signed by a reader identity.",
            discussion: """
                Writes to --out: authorization-request.txt (the openid4vp:// URL a QR code or link carries), request-object.jwt \
                (the signed request object a wallet fetches from --request-uri, signed now, echoing --wallet-nonce when given), \
                session.json (mode 0600: what the verifier keeps, the encryption key included) and request.json. \
                `verify openid4vp-redirect --session session.json` checks the form the wallet posts to --response-uri. \
                Existing files are not overwritten.
                """
        )

        @OptionGroup var files: RequestFiles
        @OptionGroup var reader: ReaderOptions

        @Option(name: .customLong("request-uri"), help: "Where the wallet fetches the request object (https; http only to a loopback host).")
        var requestURI: String

        @Option(name: .customLong("response-uri"), help: "Where the wallet posts its answer (https; http only to a loopback host).")
        var responseURI: String

        @Option(help: "Seconds the request stays valid (the request object's exp).")
        var ttl: Int = 300

        @Option(name: .customLong("response-mode"), help: "direct_post.jwt (encrypted to a fresh key; the default) or direct_post (plain).")
        var responseMode: OpenID4VPRedirectSession.ResponseMode = .directPostJWT

        @Option(help: "default, or haip: HAIP 1.0 (x509_hash, direct_post.jwt, and HAIP's answer rules at verification).")
        var profile: OpenID4VPProfile = .default

        @Option(name: .customLong("client-id-prefix"), help: "x509_hash (the default) or x509_san_dns.")
        var clientIDPrefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash

        @Option(name: .customLong("wallet-nonce"), help: "The wallet_nonce a wallet POSTed to request_uri, echoed in request-object.jwt.")
        var walletNonce: String?

        @Option(help: "The authorization request's scheme: openid4vp:// (the default), or a wallet's https URL for a same-device link.")
        var scheme: String = OpenID4VPRedirectRequest.defaultScheme

        @Option(name: .customLong("trust"), help: "Trust anchor file or directory the request's allowedIssuers are narrowed to (DCQL trusted_authorities); repeatable. Default: the embedded production bundle.")
        var trust: [String] = []

        func run() throws {
            try runReportingExit {
                let policy = try files.policy()
                guard let identity = try reader.identity() else {
                    throw UsageFailure("openid4vp-redirect signs its request object: give --reader-cert and --reader-key")
                }
                guard ttl > 0 else { throw UsageFailure("--ttl must be a positive number of seconds") }
                let now = Date()
                let created: OpenID4VPRedirectRequest
                let object: String
                do {
                    created = try OpenID4VPRedirectRequest.create(
                        policy: policy, reader: identity, requestURI: requestURI, responseURI: responseURI,
                        expiresAt: now.addingTimeInterval(TimeInterval(ttl)), clientIDPrefix: clientIDPrefix, responseMode: responseMode,
                        profile: profile, trustedAuthorities: try RequestAllowList.narrowed(policy, trust: trust) ?? [:])
                    object = try created.session.requestObject(reader: identity, walletNonce: walletNonce, issuedAt: now)
                } catch let error as VerificationError {
                    throw UsageFailure("\(error.code.rawValue): \(error.message)")
                }
                let session = SessionFile(format: .openID4VPRedirect, state: try OpenID4VPRedirectFlow.state(created.session), request: policy)
                try RequestOutputFiles.write([
                    ("authorization-request.txt", Data((created.authorizationRequest(scheme: scheme) + "\n").utf8), false),
                    ("request-object.jwt", Data((object + "\n").utf8), false),
                    (SessionFile.name, session.encoded(), true),
                    ("request.json", try PolicyJSON.encode(policy), false),
                ], into: files.out)
                print("wrote authorization-request.txt, request-object.jwt, \(SessionFile.name), request.json to \(files.out)")
                return .verified
            }
        }
    }
}

extension Simulate {
    struct OpenID4VPRedirect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp-redirect",
            abstract: "A wallet's direct_post(.jwt) answer to an openid4vp-redirect request: read from files, or fetched and posted over HTTP.",
            discussion: """
                Reads the authorization request (its client_id and request_uri) and the request object: the file \
                --request-object names (from `request openid4vp-redirect`), or, without it, the object the wallet fetches \
                itself with a POST of a fresh wallet_nonce to request_uri. Checks the object as a wallet must (its signature \
                by the x5c leaf, the client_id under its prefix, the wallet_nonce echoed) and writes response.txt: the form \
                the wallet posts to response_uri. With --post the wallet posts it there and prints the verifier's answer \
                (a same-device redirect_uri among it); otherwise `verify openid4vp-redirect --response` checks it.
                """
        )

        @Option(name: .customLong("authorization-request"), help: "The openid4vp:// URL, or authorization-request.txt holding it.")
        var authorizationRequest: String

        @Option(name: .customLong("request-object"), help: "request-object.jwt: the signed request object the wallet fetched. Without it the wallet fetches it from request_uri.")
        var requestObject: String?

        @Option(name: .customLong("wallet-nonce"), help: "The wallet_nonce the wallet sent when it fetched the request object (with --request-object), or sends (otherwise; default: a fresh one).")
        var walletNonce: String?

        @Flag(help: "Post response.txt to the request's response_uri, as the wallet does, and print the verifier's answer.")
        var post = false

        @Option(help: "Seconds each HTTP exchange (the fetch, the post) may take.")
        var timeout: Double = 30

        @OptionGroup var document: SimulationArguments

        func run() throws {
            try runReportingExit {
                let url = FileManager.default.fileExists(atPath: authorizationRequest)
                    ? try InputFiles.readText(authorizationRequest, what: "authorization request", maxBytes: 8_192) : authorizationRequest
                let (request, fetched) = try walletRequest(url.trimmingCharacters(in: .whitespacesAndNewlines))
                let built = try document.simulate(.openID4VPRedirect(request))
                let files = try document.write(built, responseName: "response.txt")
                var verify: [String]?
                if let requestObject {
                    let session = URL(fileURLWithPath: requestObject).deletingLastPathComponent().appendingPathComponent(SessionFile.name).path
                    verify = document.verifyCommand(["openid4vp-redirect", "--response", files.response, "--session", session], built: built,
                                                    files: files, sessionKeepsRequest: true)
                }
                if let fetched { _ = try OutputFiles.write(Array(fetched.utf8), to: document.out, name: "request-object.jwt") }
                try document.writeCase(built, files: files, verify: verify, extra: ["clientId": request.clientID])
                if post { try postAnswer(String(decoding: built.response.bytes, as: UTF8.self), to: request.responseURI) }
                return .verified
            }
        }

        /// The request the wallet answers: from --request-object, or fetched from request_uri (then also its text).
        func walletRequest(_ url: String) throws -> (OpenID4VPRedirectWalletRequest, fetched: String?) {
            do {
                let parsed = try OpenID4VPAuthorizationRequest(url: url)
                if let requestObject {
                    let jws = try InputFiles.readText(requestObject, what: "request object", maxBytes: 1 << 20)
                    return (try OpenID4VPRedirectWalletRequest(requestObject: jws.trimmingCharacters(in: .whitespacesAndNewlines),
                                                               clientID: parsed.clientID, walletNonce: walletNonce), nil)
                }
                let nonce = walletNonce ?? Base64URL.encode(SecureRandom.bytes(16))
                let jws = try WalletHTTP.fetchRequestObject(parsed.requestURI, walletNonce: nonce, timeout: timeout)
                return (try OpenID4VPRedirectWalletRequest(requestObject: jws, clientID: parsed.clientID, walletNonce: nonce), jws)
            } catch let error as SimulationError {
                throw UsageFailure(error.description)
            } catch let error as WalletHTTPFailure {
                throw UsageFailure(error.description)
            }
        }

        /// Posts the form to `responseURI` and prints the verifier's answer; a refusal is a failure naming its code.
        func postAnswer(_ form: String, to responseURI: String) throws {
            let (status, object) = try WalletHTTP.postAnswer(form, to: responseURI, timeout: timeout)
            guard status == 200 else {
                let code = object["error"]?["code"]?.string.map { " \(InputQuote.short($0))" } ?? ""
                throw UsageFailure("response_uri answered \(status)\(code): the verifier refused the answer")
            }
            let redirect = object["redirect_uri"]?.string.map { "; redirect_uri \(InputQuote.short($0, limit: 2_048))" } ?? ""
            print("posted:   response_uri answered 200\(redirect)")
        }
    }
}

extension Verify {
    struct OpenID4VPRedirect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp-redirect",
            abstract: "Verify the form a wallet posted to response_uri (OpenID4VP by reference: direct_post.jwt or direct_post)."
        )

        @Option(help: "The form body the wallet posted (application/x-www-form-urlencoded: response=<JWE>, or vp_token and state).")
        var response: String

        @Option(help: "session.json written by `request openid4vp-redirect`.")
        var session: String

        @OptionGroup var options: VerificationOptions

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.responseText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes,
                                                       expected: "the form the wallet posted: response=<JWE>, or vp_token and state")
                let kept = try SessionFile.read(session, expected: .openID4VPRedirect)
                let loaded = try kept.redirect()
                let (configuration, revocation) = try options.configuration(testMode: false)
                let verifier = ResponseVerifier(configuration: configuration)
                let time = try InputFiles.time(options.at)
                let policy = try kept.policy(requestPath: options.request)
                let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
                let report = revocation.verify { lookups in
                    verifier.verify(directPost: body, session: loaded, request: policy, at: time, noting: lookups)
                }
                return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
            }
        }
    }
}

extension SessionFile {
    /// The OpenID4VP redirect session this file keeps.
    func redirect() throws -> OpenID4VPRedirectSession {
        do {
            return try OpenID4VPRedirectFlow.session(state)
        } catch {
            throw incomplete(error)
        }
    }
}
