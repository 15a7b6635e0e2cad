import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// How `trust vical verify` prints a verified VICAL.
enum VICALReport {
    static func freshness(_ verified: VICALVerification) -> String {
        switch verified.freshness {
        case .fresh: return "fresh"
        case .undated: return "no nextUpdate"
        case .stale(let since): return "STALE since \(since)"
        }
    }

    static func curve(_ certificate: Certificate) -> String {
        (try? certificate.publicKey().curve.rawValue) ?? certificate.publicKeyAlgorithmOID
    }

    static func text(_ verified: VICALVerification, at time: Date) -> String {
        let vical = verified.vical
        var lines = [
            "VERIFIED VICAL from \(vical.provider) (\(freshness(verified)))",
            "  date \(vical.date), issue ID \(vical.issueID.map(String.init) ?? "-"), nextUpdate \(vical.nextUpdate?.description ?? "-")",
            "  signer \(verified.signer.subject) ← root \(verified.root.subject)",
            "  \(vical.entries.count) IACA(s) (\(vical.listedCount) listed, deduplicated by SPKI)",
        ]
        for entry in vical.entries {
            let certificate = entry.certificate
            let expired = certificate.notAfter < time ? " EXPIRED" : ""
            lines.append("")
            lines.append("  \(certificate.subject)\(expired)")
            lines.append("    spki sha256 \(Hex.encode(entry.spkiSHA256))  \(curve(certificate))")
            lines.append("    valid \(RFC3339.format(certificate.notBefore)) … \(RFC3339.format(certificate.notAfter))")
            lines.append("    docTypes \(entry.docTypes.joined(separator: ", "))")
        }
        // The provider, subjects and docTypes are the VICAL's text: escaped so they cannot drive the terminal.
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    static func json(_ verified: VICALVerification) -> JSONValue {
        let vical = verified.vical
        return .object([
            ("verified", .bool(true)),
            ("provider", .string(vical.provider)),
            ("date", .string(vical.date.description)),
            ("vicalIssueID", vical.issueID.map { .int($0) } ?? .null),
            ("nextUpdate", vical.nextUpdate.map { .string($0.description) } ?? .null),
            ("freshness", .string(freshness(verified))),
            ("signer", .string(verified.signer.subject.description)),
            ("root", .string(verified.root.subject.description)),
            ("listed", .int(UInt64(vical.listedCount))),
            ("entries", .array(vical.entries.map { entry in
                .object([
                    ("subject", .string(entry.certificate.subject.description)),
                    ("spkiSHA256", .string(Hex.encode(entry.spkiSHA256))),
                    ("certificateSHA256", .string(Hex.encode(entry.certificate.sha256Fingerprint))),
                    ("notBefore", .string(RFC3339.format(entry.certificate.notBefore))),
                    ("notAfter", .string(RFC3339.format(entry.certificate.notAfter))),
                    ("docTypes", .array(entry.docTypes.map(JSONValue.string))),
                    ("curve", .string(curve(entry.certificate))),
                ])
            })),
        ])
    }
}

/// Writing a verified VICAL into a trust folder (`TrustListImport`), and reading back what earlier imports recorded.
enum VICALImport {
    /// What `trust vical import` and `trust vical fetch` do with the list's bytes: verify them against the pinned roots
    /// and the folder's highest issue (rollback), then write the import. Prints the outcome.
    ///
    /// - Returns: `.verified` when imported, `.rejected` when the list was refused.
    /// - Throws: `UsageFailure` when the folder is not an import folder, holds another provider's list, or cannot be
    ///   written.
    static func run(_ bytes: [UInt8], roots: PinnedRoots, pins: ListPinOptions<VICALKind>, source: String,
                    into target: ListImportOptions<VICALKind>) throws -> ExitStatus {
        let out = target.out
        let previous = try previous(in: out), time = try pins.time()
        return try TrustListImport.run(.vical, verify: { () throws(VerificationError) in
            try TrustListKind.vical.verify(bytes, roots: roots.get(), at: time, profile: pins.profile)
        }, previous: previous?.highestIssueID, allowRollback: target.allowRollback, sameList: { list in
            if let provider = previous?.provider, provider != list.markKey {
                throw UsageFailure("\(out) holds the import of \(provider)'s VICAL, not \(list.owner)'s; import each provider into its own folder")
            }
        }, write: { list in
            guard case .vical(let verified) = list else { throw UsageFailure("not a VICAL") }
            let written = try write(verified, source: source, into: out, highest: list.raisedMark(over: previous?.highestIssueID))
            return "imported \(written) IACA certificate(s) from \(verified.vical.provider) VICAL \(verified.vical.issueID.map(String.init) ?? "-") into \(out)"
        })
    }

    /// What the folder's manifest says about earlier imports.
    struct Previous {
        let provider: String?
        /// The highest vicalIssueID ever accepted into the folder.
        let highestIssueID: UInt64?
    }

    /// Writes each entry as `<subject>-<spki prefix>.pem` and the manifest; returns how many certificates it wrote.
    static func write(_ verified: VICALVerification, source: String, into directory: String, highest: UInt64?) throws -> Int {
        let anchors = verified.vical.entries.map { entry in
            TrustListImport.Anchor(certificate: entry.certificate, suffix: Hex.encode(Array(entry.spkiSHA256.prefix(4))), fields: [
                ("subject", .string(entry.certificate.subject.description)),
                ("certificateSHA256", .string(Hex.encode(entry.certificate.sha256Fingerprint))),
                ("spkiSHA256", .string(Hex.encode(entry.spkiSHA256))),
                ("docTypes", .array(entry.docTypes.map(JSONValue.string))),
            ])
        }
        return try TrustListImport.write(anchors, fallbackName: "iaca", manifest: [
            ("source", .string(source)),
            ("provider", .string(verified.vical.provider)),
            ("vicalIssueID", verified.vical.issueID.map { .int($0) } ?? .null),
            ("highestIssueID", highest.map { .int($0) } ?? .null),
            ("date", .string(verified.vical.date.description)),
            ("nextUpdate", verified.vical.nextUpdate.map { .string($0.description) } ?? .null),
            ("importedAt", .string(RFC3339.format(Date()))),
            ("root", .string(verified.root.subject.description)),
        ], into: directory)
    }

    /// What earlier imports into `directory` recorded; nil for a new or empty folder.
    static func previous(in directory: String) throws -> Previous? {
        guard let manifest = try TrustListImport.previousManifest(in: directory) else { return nil }
        if let list = manifest["list"]?.string {
            throw UsageFailure("\(directory) holds another import (\(list)); import each list into its own folder")
        }
        return Previous(provider: manifest["provider"]?.string,
                        highestIssueID: TrustListImport.highest(manifest, "highestIssueID", "vicalIssueID"))
    }
}
