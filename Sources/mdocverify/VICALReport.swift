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

    /// What `trust vical import` and `trust vical fetch` do with the list's bytes: verify them against the pinned roots
    /// and the folder's highest issue (rollback), then write the import. Prints the outcome.
    ///
    /// - Returns: `.verified` when imported, `.rejected` when the list was refused.
    /// - Throws: `UsageFailure` when the folder is not an import folder, holds another provider's list, or cannot be
    ///   written.
    static func run(_ bytes: [UInt8], roots: [Certificate], at time: Date, profile: CertificateProfile, source: String,
                    into out: String, allowRollback: Bool) throws -> ExitStatus {
        let previous = try previous(in: out)
        let verified: VICALVerification
        do throws(VerificationError) {
            verified = try VICALVerification(bytes, roots: roots, at: time, previousIssueID: previous?.highestIssueID,
                                             allowRollback: allowRollback, profile: profile)
        } catch {
            print(TerminalText.escaped("REJECTED VICAL — \(error.code.rawValue): \(error.message)"))
            return .rejected
        }
        if let provider = previous?.provider, provider != verified.vical.provider {
            throw UsageFailure("\(out) holds the import of \(provider)'s VICAL, not \(verified.vical.provider)'s; import each provider into its own folder")
        }
        let written = try write(verified, source: source, into: out, highestIssueID: previous?.highestIssueID)
        print(TerminalText.escaped("imported \(written) IACA certificate(s) from \(verified.vical.provider) VICAL "
                                   + "\(verified.vical.issueID.map(String.init) ?? "-") into \(out)"))
        return .verified
    }

    /// What the folder's manifest says about earlier imports.
    struct Previous {
        let provider: String?
        /// The highest vicalIssueID ever accepted into the folder.
        let highestIssueID: UInt64?
    }

    /// Writes each entry as `<subject>-<spki prefix>.pem` and `manifest.json` into a new folder beside `directory`, then
    /// swaps it in, so the folder never holds a mix of two imports and an IACA the new list dropped is gone. Returns how
    /// many certificates it wrote.
    static func write(_ verified: VICALVerification, source: String, into directory: String, highestIssueID: UInt64?) throws -> Int {
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
        var names = Set<String>()
        for entry in verified.vical.entries {
            var name = fileName(entry)
            if names.contains(name) { name = name.replacingOccurrences(of: ".pem", with: "-\(names.count).pem") }
            names.insert(name)
            guard manager.createFile(atPath: staging.appendingPathComponent(name).path, contents: Data(entry.certificate.pemEncoded.utf8)) else {
                throw UsageFailure("cannot write \(staging.path)/\(name)")
            }
            entries.append(.object([
                ("file", .string(name)),
                ("subject", .string(entry.certificate.subject.description)),
                ("certificateSHA256", .string(Hex.encode(entry.certificate.sha256Fingerprint))),
                ("spkiSHA256", .string(Hex.encode(entry.spkiSHA256))),
                ("docTypes", .array(entry.docTypes.map(JSONValue.string))),
            ]))
        }
        let highest = [highestIssueID, verified.vical.issueID].compactMap { $0 }.max()
        let manifest = JSONValue.object([
            ("source", .string(source)),
            ("provider", .string(verified.vical.provider)),
            ("vicalIssueID", verified.vical.issueID.map { .int($0) } ?? .null),
            ("highestIssueID", highest.map { .int($0) } ?? .null),
            ("date", .string(verified.vical.date.description)),
            ("nextUpdate", verified.vical.nextUpdate.map { .string($0.description) } ?? .null),
            ("importedAt", .string(RFC3339.format(Date()))),
            ("root", .string(verified.root.subject.description)),
            ("entries", .array(entries)),
        ])
        guard manager.createFile(atPath: staging.appendingPathComponent(manifestName).path,
                                 contents: Data((manifest.serialized(pretty: true) + "\n").utf8)) else {
            throw UsageFailure("cannot write \(staging.path)/\(manifestName)")
        }
        try swap(staging, into: target)
        return entries.count
    }

    /// Moves `staging` to `target`: the old folder is renamed aside first and removed after, so a reader sees either the
    /// old import or the new one.
    static func swap(_ staging: URL, into target: URL) throws {
        let manager = FileManager.default
        let old = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).old-\(UUID().uuidString)")
        let exists = manager.fileExists(atPath: target.path)
        do {
            if exists { try manager.moveItem(at: target, to: old) }
            try manager.moveItem(at: staging, to: target)
        } catch {
            if exists, !manager.fileExists(atPath: target.path) { try? manager.moveItem(at: old, to: target) }
            throw UsageFailure("cannot replace \(target.path): \(error.localizedDescription)")
        }
        if exists { try? manager.removeItem(at: old) }
    }

    /// A file name from the certificate's subject (its CN, else the whole name), letters, digits and dashes only, and
    /// the start of its SPKI hash.
    static func fileName(_ entry: VICAL.Entry) -> String {
        let subject = entry.certificate.subject.description
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
        return (slug.isEmpty ? "iaca" : slug) + "-" + Hex.encode(Array(entry.spkiSHA256.prefix(4))) + ".pem"
    }

    static func manifest(in directory: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + manifestName) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// What earlier imports into `directory` recorded; nil for a new or empty folder.
    ///
    /// - Throws: `UsageFailure` when the folder holds files but no import manifest (it is not an import folder) or a
    ///   manifest that cannot be read.
    static func previous(in directory: String) throws -> Previous? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return nil }
        let names = ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }
        guard manager.fileExists(atPath: directory + "/" + manifestName) else {
            if names.isEmpty { return nil }
            throw UsageFailure("\(directory) holds files but no \(manifestName) of an earlier import; import into an empty folder")
        }
        guard let manifest = manifest(in: directory) else {
            throw UsageFailure("\(directory)/\(manifestName) is not readable JSON")
        }
        let issue = { (key: String) in (manifest[key] as? NSNumber)?.uint64Value }
        let highest = [issue("highestIssueID"), issue("vicalIssueID")].compactMap { $0 }.max()
        return Previous(provider: manifest["provider"] as? String, highestIssueID: highest)
    }
}
