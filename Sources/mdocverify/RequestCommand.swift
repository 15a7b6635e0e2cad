import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

struct Request: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a wallet request.",
        subcommands: FormatCommands.requestCommands
    )

    struct AnnexC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annex-c",
            abstract: "Create an ISO/IEC 18013-7 Annex C request for navigator.credentials.get (protocol org-iso-mdoc).",
            discussion: """
                Writes to --out: data.json (the `data` member for the request), session.json (mode 0600: what the \
                server keeps until the response arrives, for `verify annex-c --session`: the recipient key, the exact \
                encryptionInfo, the origin and the request) and request.json. Existing files are not overwritten.
                """
        )

        @Option(help: "The origin of the page that will call navigator.credentials.get, e.g. https://shop.example.")
        var origin: String

        @OptionGroup var files: RequestFiles

        @OptionGroup var reader: ReaderOptions

        @Option(name: .customLong("device-request-version"),
                help: "1.1 (readerAuthAll, as in Apple's sample) or 1.0 (readerAuth per document).")
        var deviceRequestVersion: DeviceRequestVersion = .v1_1

        @Flag(name: .customLong("issuer-identifiers"),
              help: "List the trust store's issuer key identifiers for each docType in the request (requestInfo.issuerIdentifiers), so the wallet offers only documents they anchor.")
        var issuerIdentifiers = false

        @Option(name: .customLong("trust"), help: "Trust anchor file or directory for --issuer-identifiers and the request's allowedIssuers; repeatable. Default: the embedded production bundle.")
        var trust: [String] = []

        func run() throws {
            try runReportingExit {
                let policy = try files.policy()
                let reader = try reader.identity()
                let allowed = try RequestAllowList.narrowed(policy, trust: trust)
                let identifiers = try allowed ?? (issuerIdentifiers
                    ? IssuerIdentifiers.offer(for: policy.documents.map(\.docType), in: try InputFiles.trustStore(trust)) : [:])
                if allowed == nil, issuerIdentifiers, let missing = policy.documents.first(where: { identifiers[$0.docType] == nil }) {
                    FileHandle.standardError.write(Data("note: no issuer identifiers for \(missing.docType): the trust store has no anchor for it, or one without a key identifier; the wallet may offer any issuer\n".utf8))
                }
                let created: AnnexCWebRequest
                do {
                    created = try AnnexCWebRequest.create(origin: origin, request: policy, reader: reader, version: deviceRequestVersion,
                                                          issuerIdentifiers: identifiers)
                } catch let error as VerificationError {
                    throw UsageFailure("\(error.code.rawValue): \(error.message)")
                }
                let session = SessionFile(format: .annexC, state: try AnnexCFlow.state(privateKey: created.session.privateKey,
                                                                                    encryptionInfo: created.encryptionInfo,
                                                                                    origin: created.session.origin),
                                          request: policy)
                try RequestOutputFiles.writeRequest("data.json", created.data, session: session, policy: policy, into: files.out)
                return .verified
            }
        }
    }
}

extension Request {
    struct AppleApp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-app",
            abstract: "Create an Apple Verify with Wallet in-app request: a fresh nonce for PKIdentityRequest.",
            discussion: """
                Writes to --out: app-request.json (what the app passes to PKIdentityRequest: nonce, base64url, and the \
                issuer identifiers per docType for PKIdentityDocumentDescriptor.issuerIdentifiers), session.json (mode \
                0600: what the server keeps for `verify apple-app --session`: the nonce, merchant and team IDs and the \
                request) and request.json. Existing files are not overwritten.
                """
        )

        @OptionGroup var files: RequestFiles

        @Option(name: .customLong("merchant-id"), help: "Merchant identifier the app requests with.")
        var merchantID: String

        @Option(name: .customLong("team-id"), help: "Apple Developer Team ID of the requesting app.")
        var teamID: String

        @Option(name: .customLong("trust"), help: "Trust anchor file or directory the issuer identifiers come from; repeatable. Default: the embedded production bundle.")
        var trust: [String] = []

        func run() throws {
            try runReportingExit {
                let policy = try files.policy()
                let nonce = SecureRandom.bytes(32)
                let offers = try RequestAllowList.narrowed(policy, trust: trust)
                    ?? IssuerIdentifiers.offer(for: policy.documents.map(\.docType), in: try InputFiles.trustStore(trust))
                let identifiers = JSONValue.object(offers.keys.sorted().map { docType in
                    (docType, .array((offers[docType] ?? []).map { .string(Base64URL.encode($0)) }))
                })
                let appRequest = JSONValue.object([
                    ("nonce", .string(Base64URL.encode(nonce))), ("merchantID", .string(merchantID)), ("teamID", .string(teamID)),
                    ("issuerIdentifiers", identifiers),
                ])
                let session = SessionFile(format: .appleApp, state: try AppleAppFlow.state(nonce: nonce), request: policy,
                                          merchantID: merchantID, teamID: teamID)
                try RequestOutputFiles.writeRequest("app-request.json", appRequest, session: session, policy: policy, into: files.out)
                return .verified
            }
        }
    }
}

extension DeviceRequestVersion: ExpressibleByArgument {}

/// What every `request <format>` reads and where it writes.
struct RequestFiles: ParsableArguments {
    @Option(help: "JSON of what to request: {\"documents\":[{\"docType\",\"nameSpaces\":{ns:{element:intentToRetain}}}]}")
    var request: String

    @Option(help: "Directory to write into (created if missing).")
    var out: String

    /// The request policy `--request` names.
    func policy() throws -> RequestPolicy {
        guard let policy = try InputFiles.request(request) else { throw UsageFailure("--request is required") }
        return policy
    }
}

/// Writes the request files; refuses to overwrite, so a kept private key is never replaced by accident.
enum RequestOutputFiles {
    /// Writes what every `request <format>` writes: `name` (what the page or app gets, as `json`), session.json (mode
    /// 0600) and request.json; then says so.
    static func writeRequest(_ name: String, _ json: JSONValue, session: SessionFile, policy: RequestPolicy, into directory: String) throws {
        try write([
            (name, Data((json.serialized(pretty: true) + "\n").utf8), false),
            (SessionFile.name, session.encoded(), true),
            ("request.json", try PolicyJSON.encode(policy), false),
        ], into: directory)
        print("wrote \(name), \(SessionFile.name), request.json to \(directory)")
    }

    static func write(_ files: [(name: String, contents: Data, secret: Bool)], into directory: String) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageFailure("cannot create \(directory): \(error.localizedDescription)")
        }
        let urls = files.map { URL(fileURLWithPath: directory).appendingPathComponent($0.name) }
        if let existing = urls.first(where: { manager.fileExists(atPath: $0.path) }) {
            throw UsageFailure("\(existing.path) exists; not overwriting")
        }
        for file in files { try OutputFiles.write(Array(file.contents), to: directory, name: file.name, privateFile: file.secret) }
    }
}

/// The reader identity that signs web requests (Annex C ReaderAuth, OpenID4VP request objects).
struct ReaderOptions: ParsableArguments {
    @Option(name: .customLong("reader-cert"), help: "Reader certificate (chain, leaf first), PEM or DER; signs the request with --reader-key.")
    var readerCert: String?

    @Option(name: .customLong("reader-key"), help: "Private key of the reader certificate, PEM.")
    var readerKey: String?

    func identity() throws -> ReaderIdentity? {
        switch (readerCert, readerKey) {
        case (nil, nil):
            return nil
        case let (.some(certPath), .some(keyPath)):
            let bytes = try InputFiles.read(certPath, what: "reader certificate")
            let certificates: [Certificate]
            if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
                certificates = (try? Certificate.certificates(fromPEM: text)) ?? []
            } else {
                certificates = (try? Certificate(derEncoded: bytes)).map { [$0] } ?? []
            }
            guard !certificates.isEmpty else { throw UsageFailure("no certificate in \(certPath) (PEM or DER expected)") }
            do {
                return try ReaderIdentity(key: try InputFiles.privateKey(keyPath), certificates: certificates)
            } catch let error as VerificationError {
                throw UsageFailure(error.message)
            }
        default:
            throw UsageFailure("--reader-cert and --reader-key go together")
        }
    }
}
