import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// `mdocverify trust …`: VICALs and the trust store.
struct Trust: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify and import VICALs and EU trusted lists (LoTE); list trust anchors.",
        subcommands: [VICALCommands.self, LoTECommands.self, List.self]
    )

    struct VICALCommands: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vical", abstract: "ISO/IEC 18013-5 Annex C VICALs.", subcommands: [VerifyVICAL.self, ImportVICAL.self, FetchVICAL.self])
    }

    /// What `trust vical verify` and `import` take: the list, the pinned roots, the time and the profile.
    struct VICALOptions: ParsableArguments {
        @Option(help: "The VICAL file (COSE_Sign1, CBOR): raw, or hex/base64 text of it.")
        var vical: String

        @OptionGroup var pins: ListPinOptions<VICALKind>

        /// The VICAL bytes and the pinned roots; a fingerprint is resolved among the VICAL's own certificates, so the
        /// pin (not the VICAL) decides which root is trusted.
        func load() throws -> (bytes: [UInt8], roots: PinnedRoots, time: Date) {
            let bytes = try InputFiles.cbor(vical, what: "VICAL", maxBytes: VICALKind.maxBytes, certificateOption: "--root",
                                            expected: "the COSE_Sign1 CBOR, raw or as hex/base64 text")
            return (bytes, try pins.roots(for: bytes), try pins.time())
        }
    }

    struct VerifyVICAL: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Verify a VICAL against a pinned root and list its entries.")

        @OptionGroup var options: VICALOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runReportingExit {
                let (bytes, roots, time) = try options.load()
                return TrustListImport.report(noun: VICALKind.noun, asJSON: json, verify: { () throws(VerificationError) in
                    try VICALVerification(bytes, roots: roots.get(), at: time, profile: options.pins.profile)
                }, text: { VICALReport.text($0, at: time) }, json: VICALReport.json)
            }
        }
    }

    struct ImportVICAL: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Verify a VICAL and write each IACA (PEM) and a manifest.json into a trust folder.",
            discussion: "The import replaces the folder's previous import whole (written aside, then swapped in): an IACA the new list dropped is gone. A lower vicalIssueID than the highest one the folder's manifest has accepted, or a list without one after one with, refuses the import (vical.rollback) unless --allow-rollback is given.")

        @OptionGroup var options: VICALOptions
        @OptionGroup var target: ListImportOptions<VICALKind>

        func run() throws {
            try runReportingExit {
                let (bytes, roots, _) = try options.load()
                return try VICALImport.run(bytes, roots: roots, pins: options.pins, source: options.vical, into: target)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every trust anchor: fingerprint, validity (expired ones flagged), docType scope and source.")

        @Option(name: .customLong("trust"), help: "Trust anchor files or folders (repeatable). Default: the embedded production bundle.")
        var trust: [String] = []

        @Option(help: "Flag anchors expired as of this RFC 3339 time instead of now.")
        var at: String?

        func run() throws {
            try runReportingExit {
                let time = try InputFiles.time(at)
                let files: [(file: String, certificates: [Certificate])]
                let provenance: [[UInt8]: AnchorProvenance]
                do {
                    if trust.isEmpty {
                        let bundle = try ProductionTrustBundle.trustStore()
                        files = [("embedded production bundle", bundle.anchors)]
                        provenance = bundle.provenance
                    } else {
                        let loaded = try TrustInput.files(trust)
                        files = loaded.files
                        provenance = loaded.store.provenance
                    }
                } catch let failure as UsageFailure {
                    throw failure
                } catch {
                    throw UsageFailure("cannot load trust anchors: \(error)")
                }
                var count = 0
                for (file, certificates) in files {
                    for certificate in certificates {
                        count += 1
                        printAnchor(certificate, file: file, provenance: provenance[certificate.sha256Fingerprint], at: time)
                    }
                }
                let expired = files.flatMap(\.certificates).filter { $0.notAfter < time }.count
                print("\(count) anchor(s)" + (expired > 0 ? ", \(expired) of them expired at \(RFC3339.format(time)) (an expired anchor anchors nothing)" : ""))
                if trust.isEmpty { warnStaleSourceLists(files.flatMap(\.certificates), provenance: provenance, at: time) }
                return .verified
            }
        }

        /// A warning line per list the default bundle took anchors from whose nextUpdate has passed at `time`.
        private func warnStaleSourceLists(_ anchors: [Certificate], provenance: [[UInt8]: AnchorProvenance], at time: Date) {
            for list in ProductionTrustBundle.sourceLists() where list.nextUpdate < time {
                let count = anchors.filter { provenance[$0.sha256Fingerprint]?.source?.contains(list.source) == true }.count
                guard count > 0 else { continue }
                print(TerminalText.escaped("warning: \(count) anchor(s) come from \(list.source), a list stale since "
                                           + "\(RFC3339.format(list.nextUpdate)) (its nextUpdate): refresh the bundle "
                                           + "(Certificates/production/README.md) or pass --trust with a current `trust vical import`"))
            }
        }

        /// Subjects, docTypes and sources come from certificates and VICALs: each line is escaped (`TerminalText`).
        private func printAnchor(_ certificate: Certificate, file: String, provenance: AnchorProvenance?, at time: Date) {
            func print(_ line: String) { Swift.print(TerminalText.escaped(line)) }
            let expired = certificate.notAfter < time ? "  EXPIRED" : ""
            print("\(certificate.subject)\(expired)")
            print("  sha256 \(Hex.encode(certificate.sha256Fingerprint))")
            print("  valid  \(RFC3339.format(certificate.notBefore)) … \(RFC3339.format(certificate.notAfter))")
            print("  scope  \(provenance?.docTypes.map { $0.joined(separator: ", ") } ?? "any docType")")
            print("  file   \(file)")
            if let source = provenance?.source { print("  source \(source)") }
            if let next = provenance?.listNextUpdate {
                print("  list   next update \(RFC3339.format(next))" + (next < time ? "  STALE" : ""))
            }
        }
    }
}
