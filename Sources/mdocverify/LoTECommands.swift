import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// `mdocverify trust lote …`: ETSI TS 119 602 Lists of Trusted Entities (the EU's trusted lists of PID, wallet, mDL
/// and attestation providers).
struct LoTECommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lote", abstract: "ETSI TS 119 602 Lists of Trusted Entities (EU trusted lists).",
        subcommands: [VerifyLoTE.self, ImportLoTE.self, FetchLoTE.self])
}

/// Which docTypes the services of which service (or list) types may anchor.
struct DocTypeMapOptions: ParsableArguments {
    @Option(name: .customLong("doctype-map"),
            help: "SERVICE_OR_LIST_TYPE=docType[,docType]: the docTypes the services of a service type URI (or a list type URI: its issuance services) may anchor (repeatable).")
    var doctypeMap: [String] = []

    /// The map; `required` refuses an empty one (an import would trust nothing).
    func scope(required: Bool) throws -> LoTEScope {
        let scope: LoTEScope
        do {
            scope = try LoTEScope(parsing: doctypeMap)
        } catch {
            throw UsageFailure("--doctype-map: \(error.message)")
        }
        if required && scope.docTypes.isEmpty {
            throw UsageFailure("give --doctype-map: a LoTE's services anchor only the docTypes you map their service type to "
                               + "(e.g. --doctype-map http://uri.etsi.org/19602/SvcType/PID/Issuance=eu.europa.ec.eudi.pid.1)")
        }
        return scope
    }
}

/// What `trust lote verify` and `import` take: the list, the pinned signer roots, the time, the profile and the docType
/// map.
struct LoTEOptions: ParsableArguments {
    @Argument(help: "The LoTE file: a compact JWS (JAdES), or its JSON serialization.")
    var file: String

    @OptionGroup var pins: ListPinOptions<LoTEKind>
    @OptionGroup var map: DocTypeMapOptions

    /// The list's bytes, the pinned roots, the time and the scope (`required`: not empty).
    func load(scopeRequired: Bool = false) throws -> (bytes: [UInt8], roots: PinnedRoots, time: Date, scope: LoTEScope) {
        let bytes = try InputFiles.read(file, what: "LoTE", maxBytes: LoTEKind.maxBytes)
        let scope = try map.scope(required: scopeRequired)
        return (bytes, try pins.roots(for: bytes), try pins.time(), scope)
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
            return TrustListImport.report(noun: LoTEKind.noun, asJSON: json, verify: { () throws(VerificationError) in
                try LoTEVerification(bytes, roots: roots.get(), at: time, profile: options.pins.profile)
            }, text: { LoTEReport.text($0, scope: scope) }, json: { LoTEReport.json($0, scope: scope) })
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
    @OptionGroup var target: ListImportOptions<LoTEKind>

    func run() throws {
        try runReportingExit {
            let (bytes, roots, _, scope) = try options.load(scopeRequired: true)
            return try LoTEImport.run(bytes, roots: roots, pins: options.pins, scope: scope, source: options.file, into: target)
        }
    }
}

/// `mdocverify trust lote fetch`: `trust lote import` on a list downloaded from its scheme operator.
struct FetchLoTE: ParsableCommand {
    static let configuration = LoTEKind.fetchCommand

    @Argument(help: "The LoTE's http or https URL.")
    var url: String

    @OptionGroup var pins: ListPinOptions<LoTEKind>
    @OptionGroup var map: DocTypeMapOptions
    @OptionGroup var target: ListImportOptions<LoTEKind>
    @OptionGroup var download: ListDownloadOptions

    func run() throws {
        try runReportingExit {
            let scope = try map.scope(required: true)
            return try download.fetch(url, pins: pins) { bytes, roots in
                try LoTEImport.run(bytes, roots: roots, pins: pins, scope: scope, source: InputQuote.redactedURL(url), into: target)
            }
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

/// Writing a verified LoTE's anchors into a trust folder (`TrustListImport`), and reading back what earlier imports
/// recorded.
enum LoTEImport {
    /// What the manifest's `list` says for a LoTE import (a VICAL import has a `provider` instead).
    static let listKind = "ETSI TS 119 602 LoTE"

    static func run(_ bytes: [UInt8], roots: PinnedRoots, pins: ListPinOptions<LoTEKind>, scope: LoTEScope, source: String,
                    into target: ListImportOptions<LoTEKind>) throws -> ExitStatus {
        let out = target.out
        let previous = try previous(in: out), time = try pins.time()
        return try TrustListImport.run(.lote, verify: { () throws(VerificationError) in
            try TrustListKind.lote.verify(bytes, roots: roots.get(), at: time, profile: pins.profile)
        }, previous: previous?.highestSequenceNumber, allowRollback: target.allowRollback, sameList: { list in
            if let key = previous?.rollbackKey, key != list.markKey {
                throw UsageFailure("\(out) holds the import of another list (\(key.dropFirst(LoTE.rollbackKeyPrefix.count))), not "
                                   + "\(list.owner)'s; import each list into its own folder")
            }
        }, write: { list in
            guard case .lote(let verified) = list else { throw UsageFailure("not a LoTE") }
            let anchors = verified.anchors(scope: scope)
            // Mapped services that are withdrawn, list no certificate or are gone from the list leave the folder with no
            // anchor from it: what the operator withdrew or removed stops being trusted. Only a first import whose map
            // names none of the list's services is a usage mistake; a newer list of a folder's list always replaces it.
            let mapsSomething = verified.decisions(scope: scope).contains { if case .unmapped = $0.outcome { false } else { true } }
            guard previous?.rollbackKey != nil || mapsSomething else {
                let types = Set(verified.lote.services.compactMap(\.type)).sorted()
                throw UsageFailure("no service of the list is mapped by --doctype-map, so nothing would be trusted; the list's type is "
                                   + "\(verified.lote.type ?? "-") and its service types are \(types.isEmpty ? "-" : types.joined(separator: ", "))")
            }
            let written = try write(verified, anchors: anchors, scope: scope, source: source, into: out,
                                    highest: list.raisedMark(over: previous?.highestSequenceNumber))
            return "imported \(written) certificate(s) from \(verified.sourceName) into \(out)"
                + (verified.freshness == .fresh ? "" : " (\(LoTEReport.freshness(verified)))")
                + (mapsSomething ? "" : "; no service of the list is mapped by --doctype-map any more, so the earlier import's anchors are removed")
        })
    }

    /// What the folder's manifest says about earlier imports.
    struct Previous {
        let rollbackKey: String?
        let highestSequenceNumber: UInt64?
    }

    /// Writes each anchor as `<subject>-<sha256 prefix>.pem` and the manifest; returns how many certificates it wrote.
    static func write(_ verified: LoTEVerification, anchors: [LoTEVerification.Anchor], scope: LoTEScope, source: String,
                      into directory: String, highest: UInt64?) throws -> Int {
        let files = anchors.map { anchor in
            TrustListImport.Anchor(certificate: anchor.certificate, suffix: Hex.encode(Array(anchor.certificate.sha256Fingerprint.prefix(4))), fields: [
                ("subject", .string(anchor.certificate.subject.description)),
                ("certificateSHA256", .string(Hex.encode(anchor.certificate.sha256Fingerprint))),
                ("docTypes", .array(anchor.docTypes.map(JSONValue.string))),
                ("entity", .string(anchor.service.entityName)),
                ("serviceType", anchor.service.type.map(JSONValue.string) ?? .null),
                ("sources", .array([.object([("source", .string(verified.sourceName))])])),
            ])
        }
        let lote = verified.lote
        return try TrustListImport.write(files, fallbackName: "anchor", manifest: [
            ("list", .string(listKind)),
            ("source", .string(source)),
            ("operator", .string(lote.operatorName)),
            ("loteType", lote.type.map(JSONValue.string) ?? .null),
            ("rollbackKey", .string(lote.rollbackKey)),
            ("sequenceNumber", .int(lote.sequenceNumber)),
            ("highestSequenceNumber", .int(highest ?? lote.sequenceNumber)),
            ("issued", .string(lote.issueDate.description)),
            ("nextUpdate", .string(lote.nextUpdate.description)),
            ("importedAt", .string(RFC3339.format(Date()))),
            ("root", .string(verified.root.subject.description)),
            ("docTypeMap", .object(scope.docTypes.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(JSONValue.string))) })),
        ], into: directory)
    }

    /// What earlier imports into `directory` recorded; nil for a new or empty folder.
    ///
    /// - Throws: `UsageFailure` when the folder is not an import folder, its manifest cannot be read, or it is the
    ///   manifest of a VICAL import.
    static func previous(in directory: String) throws -> Previous? {
        guard let manifest = try TrustListImport.previousManifest(in: directory) else { return nil }
        guard manifest["list"]?.string == listKind else {
            throw UsageFailure("\(directory) holds another import (\(manifest["provider"]?.string ?? "not a LoTE")); import each list into its own folder")
        }
        return Previous(rollbackKey: manifest["rollbackKey"]?.string,
                        highestSequenceNumber: TrustListImport.highest(manifest, "highestSequenceNumber", "sequenceNumber"))
    }
}
