import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import Verifier

/// `mdocverify trust lote …`: ETSI TS 119 602 Lists of Trusted Entities (the EU's trusted lists of PID, wallet, mDL
/// and attestation providers).
struct LoTECommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lote", abstract: "ETSI TS 119 602 Lists of Trusted Entities (EU trusted lists).",
        subcommands: [VerifyLoTE.self, ImportLoTE.self])
}

/// What both LoTE subcommands take: the list, the pinned signer roots, the time, the profile and the docType map.
struct LoTEOptions: ParsableArguments {
    @Argument(help: "The LoTE file: a compact JWS (JAdES), or its JSON serialization.")
    var file: String

    @Option(name: .customLong("root"), help: "A pinned LoTE signer root, PEM or DER: the scheme operator's signer certificate or the CA that issued it (repeatable).")
    var roots: [String] = []

    @Option(name: .customLong("root-sha256"), help: "A pinned signer root by the SHA-256 of its DER, hex, resolved among the list's x5c (repeatable).")
    var rootFingerprints: [String] = []

    @Option(name: .customLong("doctype-map"),
            help: "SERVICE_OR_LIST_TYPE=docType[,docType]: the docTypes the services of a service type URI (or a list type URI: its issuance services) may anchor (repeatable).")
    var doctypeMap: [String] = []

    @Option(help: "Verify as of this RFC 3339 time instead of now.")
    var at: String?

    @Option(help: "default (a stale list is reported) or strict (a stale list is refused).")
    var profile: CertificateProfile = .default

    /// The list's bytes, the pinned roots, the time and the scope.
    func load() throws -> (bytes: [UInt8], roots: [Certificate], time: Date, scope: LoTEScope) {
        let bytes = try InputFiles.read(file, what: "LoTE", maxBytes: LoTEVerification.maxBytes)
        let scope: LoTEScope
        do {
            scope = try LoTEScope(parsing: doctypeMap)
        } catch {
            throw UsageFailure("--doctype-map: \(error.message)")
        }
        return (bytes, try Self.roots(roots, fingerprints: rootFingerprints, for: bytes), try InputFiles.time(at), scope)
    }

    /// The pinned roots: the files given, and each fingerprint resolved among the list's own x5c (the pin, not the
    /// list, decides which certificate is trusted).
    static func roots(_ paths: [String], fingerprints: [String], for bytes: [UInt8]) throws -> [Certificate] {
        // Only the roots given: the default trust (the IACA bundle) never stands in for a LoTE signer root.
        var roots = paths.isEmpty ? [] : try InputFiles.trustStore(paths).anchors
        if !fingerprints.isEmpty {
            let carried = (try? LoTEVerification.carriedCertificates(bytes)) ?? []
            for text in fingerprints {
                let fingerprint = try InputFiles.hex(text, what: "--root-sha256")
                guard let match = carried.first(where: { $0.sha256Fingerprint == fingerprint }) else {
                    throw UsageFailure("no certificate in the LoTE's x5c has SHA-256 \(text); pin the signer's CA with --root instead")
                }
                roots.append(match)
            }
        }
        guard !roots.isEmpty else { throw UsageFailure("pin the LoTE's signer (or its CA) with --root or --root-sha256") }
        return roots
    }
}

struct VerifyLoTE: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a LoTE against a pinned signer root and list its services, with what each would anchor under --doctype-map.",
        discussion: "Exit status: 0 verified (a stale list is reported, refused under --profile strict), 1 rejected (REJECTED LoTE — lote.…), 2 usage.")

    @OptionGroup var options: LoTEOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try runReportingExit {
            let (bytes, roots, time, scope) = try options.load()
            do throws(VerificationError) {
                let verified = try LoTEVerification(bytes, roots: roots, at: time, profile: options.profile)
                print(json ? LoTEReport.json(verified, scope: scope).serialized(pretty: true) : LoTEReport.text(verified, scope: scope))
                return .verified
            } catch {
                print(json ? JSONValue.object([("verified", .bool(false)), ("error", error.json)]).serialized(pretty: true)
                           : TerminalText.escaped("REJECTED LoTE — \(error.code.rawValue): \(error.message)"))
                return .rejected
            }
        }
    }
}

struct ImportLoTE: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Verify a LoTE and write the certificates of its active, mapped services (PEM) and a manifest.json into a trust folder.",
        discussion: """
            Only services active at the verification time, of a service type (or list type) --doctype-map maps, become \
            anchors, each scoped to its mapped docTypes; a CA anchors the paths under it, an end-entity certificate only \
            itself. The import replaces the folder's previous import whole (written aside, then swapped in). A lower \
            LoTESequenceNumber than the highest one the folder's manifest has accepted refuses the import (lote.rollback) \
            unless --allow-rollback is given. Exit status: 0 imported, 1 rejected, 2 usage.
            """)

    @OptionGroup var options: LoTEOptions
    @Option(help: "The trust folder to write into (created if missing); one folder per list.") var out: String
    @Flag(help: "Accept a list older than the highest sequence already imported into --out.")
    var allowRollback = false

    func run() throws {
        try runReportingExit {
            let (bytes, roots, time, scope) = try options.load()
            guard !scope.docTypes.isEmpty else {
                throw UsageFailure("give --doctype-map: a LoTE's services anchor only the docTypes you map their service type to "
                                   + "(e.g. --doctype-map http://uri.etsi.org/19602/SvcType/PID/Issuance=eu.europa.ec.eudi.pid.1)")
            }
            return try LoTEImport.run(bytes, roots: roots, at: time, profile: options.profile, scope: scope, source: options.file, into: out,
                                      allowRollback: allowRollback)
        }
    }
}

/// How `trust lote verify` prints a verified list.
enum LoTEReport {
    static func freshness(_ verified: LoTEVerification) -> String {
        switch verified.freshness {
        case .fresh: "fresh"
        case .stale(let since): "STALE since \(since)"
        }
    }

    static func outcome(_ outcome: LoTEVerification.Outcome) -> String {
        switch outcome {
        case .anchored(let docTypes): "anchors \(docTypes.joined(separator: ", "))"
        case .inactive(let reason): "not anchored: not active (\(reason))"
        case .unmapped: "not anchored: its type is mapped to no docType (--doctype-map)"
        case .noCertificate: "not anchored: it names no X.509 certificate"
        }
    }

    static func text(_ verified: LoTEVerification, scope: LoTEScope) -> String {
        let lote = verified.lote
        var lines = [
            "VERIFIED LoTE from \(lote.operatorName) (\(freshness(verified)))",
            "  type \(lote.type ?? "-"), territory \(lote.territory ?? "-")",
            "  sequence \(lote.sequenceNumber), issued \(lote.issueDate), nextUpdate \(lote.nextUpdate)",
            "  signed \(verified.algorithm) by \(verified.signer.subject) ← pinned \(verified.root.subject)",
            "  \(lote.entityCount) entit\(lote.entityCount == 1 ? "y" : "ies"), \(lote.services.count) service(s)",
        ]
        for decision in verified.decisions(scope: scope) {
            let service = decision.service
            lines.append("")
            lines.append("  \(service.entityName) — \(service.name)")
            lines.append("    type \(service.type ?? "-")")
            if let status = service.status { lines.append("    status \(status)" + (service.statusStartingTime.map { " since \($0)" } ?? "")) }
            lines.append("    \(outcome(decision.outcome))")
            for certificate in service.certificates {
                let expired = certificate.notAfter < verified.time ? " EXPIRED" : ""
                let kind = certificate.basicConstraints?.isCA == true ? (certificate.isSelfSigned ? "root CA" : "intermediate CA") : "end-entity"
                lines.append("    \(certificate.subject) (\(kind))\(expired)")
                lines.append("      sha256 \(Hex.encode(certificate.sha256Fingerprint))")
                lines.append("      valid \(RFC3339.format(certificate.notBefore)) … \(RFC3339.format(certificate.notAfter))")
            }
            if service.otherIdentities > 0 { lines.append("    \(service.otherIdentities) other identit(ies) (key identifiers, names): never anchors") }
        }
        // Names, URIs and subjects are the list's text: escaped so they cannot drive the terminal.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    static func json(_ verified: LoTEVerification, scope: LoTEScope) -> JSONValue {
        let lote = verified.lote
        return .object([
            ("verified", .bool(true)),
            ("operator", .string(lote.operatorName)),
            ("loteType", lote.type.map(JSONValue.string) ?? .null),
            ("territory", lote.territory.map(JSONValue.string) ?? .null),
            ("sequenceNumber", .int(lote.sequenceNumber)),
            ("issued", .string(lote.issueDate.description)),
            ("nextUpdate", .string(lote.nextUpdate.description)),
            ("freshness", .string(freshness(verified))),
            ("algorithm", .string(verified.algorithm)),
            ("signer", .string(verified.signer.subject.description)),
            ("root", .string(verified.root.subject.description)),
            ("entities", .int(UInt64(lote.entityCount))),
            ("services", .array(verified.decisions(scope: scope).map { decision in
                let service = decision.service
                var anchored: JSONValue = .null
                if case .anchored(let docTypes) = decision.outcome { anchored = .array(docTypes.map(JSONValue.string)) }
                return .object([
                    ("entity", .string(service.entityName)),
                    ("name", .string(service.name)),
                    ("type", service.type.map(JSONValue.string) ?? .null),
                    ("status", service.status.map(JSONValue.string) ?? .null),
                    ("statusStartingTime", service.statusStartingTime.map { .string($0.description) } ?? .null),
                    ("anchoredDocTypes", anchored),
                    ("outcome", .string(outcome(decision.outcome))),
                    ("certificates", .array(service.certificates.map { certificate in
                        .object([
                            ("subject", .string(certificate.subject.description)),
                            ("certificateSHA256", .string(Hex.encode(certificate.sha256Fingerprint))),
                            ("ca", .bool(certificate.basicConstraints?.isCA == true)),
                            ("notBefore", .string(RFC3339.format(certificate.notBefore))),
                            ("notAfter", .string(RFC3339.format(certificate.notAfter))),
                        ])
                    })),
                ])
            })),
        ])
    }
}

/// Writing a verified LoTE's anchors into a trust folder, and reading back what earlier imports recorded.
enum LoTEImport {
    /// What the manifest's `list` says for a LoTE import (a VICAL import has a `provider` instead).
    static let listKind = "ETSI TS 119 602 LoTE"

    static func run(_ bytes: [UInt8], roots: [Certificate], at time: Date, profile: CertificateProfile, scope: LoTEScope, source: String,
                    into out: String, allowRollback: Bool) throws -> ExitStatus {
        let previous = try previous(in: out)
        let verified: LoTEVerification
        do throws(VerificationError) {
            verified = try LoTEVerification(bytes, roots: roots, at: time, previousSequenceNumber: previous?.highestSequenceNumber,
                                            allowRollback: allowRollback, profile: profile)
        } catch {
            print(TerminalText.escaped("REJECTED LoTE — \(error.code.rawValue): \(error.message)"))
            return .rejected
        }
        if let key = previous?.rollbackKey, key != verified.lote.rollbackKey {
            throw UsageFailure("\(out) holds the import of another list (\(key.dropFirst(5))), not \(verified.lote.operatorName)'s "
                               + "\(verified.lote.type ?? "list"); import each list into its own folder")
        }
        let anchors = verified.anchors(scope: scope)
        guard !anchors.isEmpty else {
            let types = Set(verified.lote.services.compactMap(\.type)).sorted()
            throw UsageFailure("no active service of the list is mapped by --doctype-map, so nothing would be trusted; the list's type is "
                               + "\(verified.lote.type ?? "-") and its service types are \(types.isEmpty ? "-" : types.joined(separator: ", "))")
        }
        let written = try write(verified, anchors: anchors, scope: scope, source: source, into: out, highest: previous?.highestSequenceNumber)
        print(TerminalText.escaped("imported \(written) certificate(s) from \(verified.sourceName) into \(out)"
                                   + (verified.freshness == .fresh ? "" : " (\(LoTEReport.freshness(verified)))")))
        return .verified
    }

    /// What the folder's manifest says about earlier imports.
    struct Previous {
        let rollbackKey: String?
        let highestSequenceNumber: UInt64?
    }

    /// Writes each anchor as `<subject>-<sha256 prefix>.pem` and `manifest.json` into a new folder beside `directory`,
    /// then swaps it in. Returns how many certificates it wrote.
    static func write(_ verified: LoTEVerification, anchors: [LoTEVerification.Anchor], scope: LoTEScope, source: String,
                      into directory: String, highest: UInt64?) throws -> Int {
        let manager = FileManager.default
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).import-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw UsageFailure("cannot create \(staging.path): \(error.localizedDescription)")
        }
        defer { try? manager.removeItem(at: staging) }
        var entries: [JSONValue] = []
        for anchor in anchors {
            let name = fileName(anchor.certificate)
            guard manager.createFile(atPath: staging.appendingPathComponent(name).path, contents: Data(anchor.certificate.pemEncoded.utf8)) else {
                throw UsageFailure("cannot write \(staging.path)/\(name)")
            }
            entries.append(.object([
                ("file", .string(name)),
                ("subject", .string(anchor.certificate.subject.description)),
                ("certificateSHA256", .string(Hex.encode(anchor.certificate.sha256Fingerprint))),
                ("docTypes", .array(anchor.docTypes.map(JSONValue.string))),
                ("entity", .string(anchor.service.entityName)),
                ("serviceType", anchor.service.type.map(JSONValue.string) ?? .null),
                ("sources", .array([.object([("source", .string(verified.sourceName))])])),
            ]))
        }
        let lote = verified.lote
        let manifest = JSONValue.object([
            ("list", .string(listKind)),
            ("source", .string(source)),
            ("operator", .string(lote.operatorName)),
            ("loteType", lote.type.map(JSONValue.string) ?? .null),
            ("rollbackKey", .string(lote.rollbackKey)),
            ("sequenceNumber", .int(lote.sequenceNumber)),
            ("highestSequenceNumber", .int(max(highest ?? 0, lote.sequenceNumber))),
            ("issued", .string(lote.issueDate.description)),
            ("nextUpdate", .string(lote.nextUpdate.description)),
            ("importedAt", .string(RFC3339.format(Date()))),
            ("root", .string(verified.root.subject.description)),
            ("docTypeMap", .object(scope.docTypes.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(JSONValue.string))) })),
            ("entries", .array(entries)),
        ])
        guard manager.createFile(atPath: staging.appendingPathComponent(TrustFolder.manifestName).path,
                                 contents: Data((manifest.serialized(pretty: true) + "\n").utf8)) else {
            throw UsageFailure("cannot write \(staging.path)/\(TrustFolder.manifestName)")
        }
        try VICALImport.swap(staging, into: target)
        return entries.count
    }

    /// A file name from the certificate's CN (else its whole subject), letters, digits and dashes only, and the start of
    /// its SHA-256.
    static func fileName(_ certificate: Certificate) -> String {
        let subject = certificate.subject.description
        let commonName = subject.split(separator: ",").first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) } ?? subject
        var slug = ""
        for character in commonName.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        slug = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(48))
        return (slug.isEmpty ? "anchor" : slug) + "-" + Hex.encode(Array(certificate.sha256Fingerprint.prefix(4))) + ".pem"
    }

    /// What earlier imports into `directory` recorded; nil for a new or empty folder.
    ///
    /// - Throws: `UsageFailure` when the folder holds files but no manifest, a manifest that cannot be read, or the
    ///   manifest of a VICAL import.
    static func previous(in directory: String) throws -> Previous? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return nil }
        let names = ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }
        guard manager.fileExists(atPath: directory + "/" + TrustFolder.manifestName) else {
            if names.isEmpty { return nil }
            throw UsageFailure("\(directory) holds files but no \(TrustFolder.manifestName) of an earlier import; import into an empty folder")
        }
        guard let manifest = VICALImport.manifest(in: directory) else {
            throw UsageFailure("\(directory)/\(TrustFolder.manifestName) is not readable JSON")
        }
        guard manifest["list"] as? String == listKind else {
            throw UsageFailure("\(directory) holds another import (\(manifest["provider"] as? String ?? "not a LoTE")); import each list into its own folder")
        }
        let highest = [manifest["highestSequenceNumber"], manifest["sequenceNumber"]].compactMap { ($0 as? NSNumber)?.uint64Value }.max()
        return Previous(rollbackKey: manifest["rollbackKey"] as? String, highestSequenceNumber: highest)
    }
}
