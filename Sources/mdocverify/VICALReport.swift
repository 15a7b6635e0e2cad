import CBOR
import CryptoCore
import Foundation
import Mdoc
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

/// Writing a verified VICAL into a trust folder, and reading back what earlier imports recorded.
enum VICALImport {
    static let manifestName = TrustFolder.manifestName

    /// Writes each entry as `NN-<spki prefix>.pem` and `manifest.json`; returns how many certificates it wrote.
    static func write(_ verified: VICALVerification, source: String, into directory: String, at time: Date) throws -> Int {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageFailure("cannot create \(directory): \(error.localizedDescription)")
        }
        var entries: [JSONValue] = []
        for (index, entry) in verified.vical.entries.enumerated() {
            let name = String(format: "%02d-", index + 1) + Hex.encode(Array(entry.spkiSHA256.prefix(8))) + ".pem"
            guard manager.createFile(atPath: directory + "/" + name, contents: Data(entry.certificate.pemEncoded.utf8)) else {
                throw UsageFailure("cannot write \(directory)/\(name)")
            }
            entries.append(.object([
                ("file", .string(name)),
                ("subject", .string(entry.certificate.subject.description)),
                ("certificateSHA256", .string(Hex.encode(entry.certificate.sha256Fingerprint))),
                ("spkiSHA256", .string(Hex.encode(entry.spkiSHA256))),
                ("docTypes", .array(entry.docTypes.map(JSONValue.string))),
            ]))
        }
        let manifest = JSONValue.object([
            ("source", .string(source)),
            ("provider", .string(verified.vical.provider)),
            ("vicalIssueID", verified.vical.issueID.map { .int($0) } ?? .null),
            ("date", .string(verified.vical.date.description)),
            ("nextUpdate", verified.vical.nextUpdate.map { .string($0.description) } ?? .null),
            ("importedAt", .string(RFC3339.format(time))),
            ("root", .string(verified.root.subject.description)),
            ("entries", .array(entries)),
        ])
        guard manager.createFile(atPath: directory + "/" + manifestName, contents: Data((manifest.serialized(pretty: true) + "\n").utf8)) else {
            throw UsageFailure("cannot write \(directory)/\(manifestName)")
        }
        return entries.count
    }

    static func manifest(in directory: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + manifestName) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func previousIssueID(in directory: String) -> UInt64? {
        (manifest(in: directory)?["vicalIssueID"] as? NSNumber)?.uint64Value
    }
}
