import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import Verifier

struct Request: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a wallet request.",
        subcommands: [AnnexC.self, OpenID4VP.self]
    )

    struct AnnexC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annex-c",
            abstract: "Create an ISO/IEC 18013-7 Annex C request for navigator.credentials.get (protocol org-iso-mdoc).",
            discussion: """
                Writes to --out: data.json (the `data` member for the request), and what the server keeps until the \
                response arrives: private-key.pem (mode 0600), encryption-info.txt (the exact string; no newline), \
                origin.txt and request.json. Existing files are not overwritten.
                """
        )

        @Option(help: "The origin of the page that will call navigator.credentials.get, e.g. https://shop.example.")
        var origin: String

        @Option(help: "JSON of what to request: {\"documents\":[{\"docType\",\"nameSpaces\":{ns:{element:intentToRetain}}}]}")
        var request: String

        @OptionGroup var reader: ReaderOptions

        @Option(name: .customLong("device-request-version"),
                help: "1.1 (readerAuthAll, as in Apple's sample) or 1.0 (readerAuth per document).")
        var deviceRequestVersion: DeviceRequestVersion = .v1_1

        @Flag(name: .customLong("issuer-identifiers"),
              help: "List the trust store's issuer key identifiers for each docType in the request (requestInfo.issuerIdentifiers), so the wallet offers only documents they anchor.")
        var issuerIdentifiers = false

        @Option(name: .customLong("trust"), help: "Trust anchor file or directory for --issuer-identifiers; repeatable. Default: the embedded production bundle.")
        var trust: [String] = []

        @Option(help: "Directory to write into (created if missing).")
        var out: String

        func run() throws {
            try runReportingExit {
                guard let policy = try InputFiles.request(request) else { throw UsageFailure("--request is required") }
                let reader = try reader.identity()
                let identifiers = issuerIdentifiers
                    ? IssuerIdentifiers.offer(for: policy.documents.map(\.docType), in: try InputFiles.trustStore(trust)) : [:]
                if issuerIdentifiers, let missing = policy.documents.first(where: { identifiers[$0.docType] == nil }) {
                    FileHandle.standardError.write(Data("note: no issuer identifiers for \(missing.docType): the trust store has no anchor for it, or one without a key identifier; the wallet may offer any issuer\n".utf8))
                }
                let created: AnnexCWebRequest
                do {
                    created = try AnnexCWebRequest.create(origin: origin, request: policy, reader: reader, version: deviceRequestVersion,
                                                          issuerIdentifiers: identifiers)
                } catch let error as VerificationError {
                    throw UsageFailure("\(error.code.rawValue): \(error.message)")
                }
                let policyJSON = try PolicyJSON.encode(policy)
                try RequestOutputFiles.write([
                    ("data.json", Data((created.data.serialized(pretty: true) + "\n").utf8), false),
                    ("private-key.pem", Data(created.session.privateKey.pkcs8PEM().utf8), true),
                    ("encryption-info.txt", Data(created.encryptionInfo.utf8), false),
                    ("origin.txt", Data(created.session.origin.utf8), false),
                    ("request.json", policyJSON, false),
                ], into: out)
                print("wrote data.json, private-key.pem, encryption-info.txt, origin.txt, request.json to \(out)")
                return .verified
            }
        }
    }
}

extension DeviceRequestVersion: ExpressibleByArgument {}

/// Writes the request files; refuses to overwrite, so a kept private key is never replaced by accident.
enum RequestOutputFiles {
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
        for (file, url) in zip(files, urls) {
            let attributes: [FileAttributeKey: Any]? = file.secret ? [.posixPermissions: 0o600] : nil
            guard manager.createFile(atPath: url.path, contents: file.contents, attributes: attributes) else {
                throw UsageFailure("cannot write \(url.path)")
            }
        }
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
