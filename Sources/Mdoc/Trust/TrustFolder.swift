import CryptoCore
import Foundation

/// A trust folder as operators keep it: certificate files (any may be an anchor) and an optional `manifest.json` that
/// scopes each anchor to docTypes and records where it came from. `mdocverify trust vical import` writes such a
/// folder; `Certificates/production/` is one.
///
/// Manifest shape (unknown keys ignored):
/// `{"provider", "vicalIssueID", "date", "nextUpdate", "entries": [{"certificateSHA256", "docTypes", "sources": [{"source"}]}]}`.
/// The top-level VICAL fields are written by an import and make every entry's source `VICAL <provider> issue <id>`;
/// an entry's own `sources` (a curated bundle's provenance) name it otherwise.
public enum TrustFolder {
    /// The file name of the manifest inside a trust folder.
    public static let manifestName = "manifest.json"

    /// The anchors of `paths` (files or folders) with the provenance their folders' manifests give.
    ///
    /// - Throws: `CryptoError` naming the file when a certificate file or a manifest is missing, unreadable or
    ///   invalid.
    public static func trustStore(paths: [String]) throws -> TrustStore {
        var provenance: [[UInt8]: AnchorProvenance] = [:]
        for path in paths where isDirectory(path) {
            provenance.merge(try manifestProvenance(directory: path)) { first, _ in first }
        }
        return try TrustStore.load(paths: paths, allowNonSelfSignedAnchors: true, provenance: provenance)
    }

    /// The `*.crl` files of those of `paths` that are folders: a trust folder may carry its issuers' CRLs beside their
    /// certificates (the certificate loader skips them). Sorted by name within each folder.
    public static func crlFiles(in paths: [String]) -> [String] {
        paths.filter(isDirectory).flatMap { path -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let directory = path.hasSuffix("/") ? path : path + "/"
            return names.sorted().filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".crl") }.map { directory + $0 }
        }
    }

    /// The provenance a folder's `manifest.json` records, by certificate SHA-256; none when it has no manifest.
    ///
    /// - Throws: `CryptoError` when the manifest is invalid (see `manifestProvenance(data:name:)`).
    public static func manifestProvenance(directory: String) throws -> [[UInt8]: AnchorProvenance] {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + manifestName
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return try manifestProvenance(data: [UInt8](data), name: path)
    }

    /// The provenance of a manifest's JSON, by certificate SHA-256 (`name` is for messages).
    ///
    /// - Throws: `CryptoError` (`invalidInput`) when the JSON is not a manifest, `nextUpdate` is not an RFC 3339
    ///   date-time, or a `certificateSHA256` is not 64 hex digits.
    public static func manifestProvenance(data: [UInt8], name: String) throws -> [[UInt8]: AnchorProvenance] {
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(data))
        } catch {
            throw CryptoError(.invalidInput, "\(name): not a trust manifest ({\"entries\": [{\"certificateSHA256\", \"docTypes\"}]})")
        }
        var listNextUpdate: Date?
        if let text = manifest.nextUpdate {
            guard let date = RFC3339.parseDateTime(text) else {
                throw CryptoError(.invalidInput, "\(name): nextUpdate \(InputQuote.short(text)) is not an RFC 3339 date-time")
            }
            listNextUpdate = date
        }
        var provenance: [[UInt8]: AnchorProvenance] = [:]
        for entry in manifest.entries {
            guard let fingerprint = Hex.decode(entry.certificateSHA256), fingerprint.count == 32 else {
                throw CryptoError(.invalidInput, "\(name): certificateSHA256 \(InputQuote.short(entry.certificateSHA256)) is not 64 hex digits")
            }
            provenance[fingerprint] = AnchorProvenance(docTypes: entry.docTypes, source: manifest.source(of: entry),
                                                       listNextUpdate: listNextUpdate)
        }
        return provenance
    }

    private struct Manifest: Decodable {
        struct Entry: Decodable {
            struct Source: Decodable { let source: String }
            let certificateSHA256: String
            let docTypes: [String]?
            let sources: [Source]?
        }
        let bundle: String?
        let provider: String?
        let vicalIssueID: UInt64?
        let date: String?
        let nextUpdate: String?
        let entries: [Entry]

        func source(of entry: Entry) -> String? {
            if let provider {
                return "VICAL \(provider)" + (vicalIssueID.map { " issue \($0)" } ?? "") + (date.map { " of \($0)" } ?? "")
            }
            let named = (entry.sources ?? []).map(\.source)
            guard !named.isEmpty else { return bundle.map { "the \($0) bundle" } }
            return (bundle.map { "the \($0) bundle, from " } ?? "") + named.joined(separator: "; ")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}

extension VICALVerification {
    /// How an entry of this list is recorded in a trust store: its docTypes, the list's name and nextUpdate.
    public func provenance(of entry: VICAL.Entry) -> AnchorProvenance {
        AnchorProvenance(docTypes: entry.docTypes,
                         source: "VICAL \(vical.provider)" + (vical.issueID.map { " issue \($0)" } ?? "") + " of \(vical.date)",
                         listNextUpdate: vical.nextUpdate?.date)
    }
}
