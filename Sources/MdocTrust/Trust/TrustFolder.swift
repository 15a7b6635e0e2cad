import CryptoCore
import Foundation
import MdocModel

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
    /// A folder with a `manifest.json` anchors exactly what the manifest lists: a certificate file in it that the
    /// manifest does not list, or a listed certificate no file holds, is a load error naming it (an import that left a
    /// file behind never widens trust). Two anchors with the same public key and different docType scopes are a load
    /// error too: either could end a path, so the narrower scope would not hold.
    ///
    /// - Throws: `CryptoError` naming the file when a certificate file or a manifest is missing, unreadable or
    ///   invalid, or when the anchors break one of the rules above.
    public static func trustStore(paths: [String]) throws -> TrustStore {
        var anchors: [ScopedAnchor] = []
        var provenance: [[UInt8]: AnchorProvenance] = [:]
        for path in paths {
            let files = try TrustStore.loadFiles(paths: [path])
            let isFolder = TrustStore.isDirectory(path) == true
            let manifest = isFolder ? try manifestProvenance(directory: path) : [:]
            let manifestPath = (path.hasSuffix("/") ? path : path + "/") + manifestName
            let hasManifest = isFolder && FileManager.default.fileExists(atPath: manifestPath)
            var listed = Set<[UInt8]>()
            for (file, certificates) in files {
                for certificate in certificates {
                    let fingerprint = certificate.sha256Fingerprint
                    let entry = manifest[fingerprint]
                    if hasManifest, entry == nil {
                        throw CryptoError(.invalidInput, "\(file): \(certificate.subject) (SHA-256 \(Hex.encode(fingerprint))) is not listed in "
                                          + "\(manifestPath); a folder with a manifest anchors exactly what it lists: remove the file or list it")
                    }
                    listed.insert(fingerprint)
                    anchors.append(ScopedAnchor(certificate: certificate, docTypes: entry?.docTypes, origin: file))
                    // A certificate outside a manifest is trusted directly: a record without list, merged like any other.
                    AnchorProvenance.record(entry ?? AnchorProvenance(), for: fingerprint, in: &provenance)
                }
            }
            if let missing = manifest.keys.first(where: { !listed.contains($0) }) {
                throw CryptoError(.invalidInput, "\(manifestPath) lists the certificate with SHA-256 \(Hex.encode(missing)), which no file "
                                  + "in the folder holds; restore the file or import the list again")
            }
        }
        if let conflict = scopeConflict(anchors) { throw CryptoError(.invalidInput, conflict) }
        // A record that says nothing (trusted directly, from no list) is what no record means.
        return TrustStore(anchors: anchors.map(\.certificate), allowNonSelfSignedAnchors: true,
                          provenance: provenance.filter { $0.value != AnchorProvenance() })
    }

    /// An anchor with the docTypes it may anchor (nil: any) and where it was read from, for `scopeConflict(_:)`.
    public struct ScopedAnchor: Sendable {
        /// The anchor.
        public let certificate: Certificate
        /// The docTypes it may anchor; nil anchors any docType.
        public let docTypes: [String]?
        /// The file or list it came from, for the message.
        public let origin: String

        /// Creates the record of one anchor as loaded.
        public init(certificate: Certificate, docTypes: [String]?, origin: String) {
            self.certificate = certificate
            self.docTypes = docTypes
            self.origin = origin
        }
    }

    /// A message naming two anchors with the same public key but different docType scopes, or nil when there are none.
    /// Chain validation may end a path at either, so the narrower scope would not hold.
    public static func scopeConflict(_ anchors: [ScopedAnchor]) -> String? {
        var first: [[UInt8]: ScopedAnchor] = [:]
        for anchor in anchors {
            let key = anchor.certificate.subjectPublicKeyInfoSHA256
            guard let earlier = first[key] else {
                first[key] = anchor
                continue
            }
            if earlier.docTypes.map({ Set($0) }) != anchor.docTypes.map({ Set($0) }) {
                func scope(_ anchor: ScopedAnchor) -> String { anchor.docTypes?.joined(separator: ", ") ?? "any docType" }
                return "\(earlier.origin) and \(anchor.origin) hold the same public key (SPKI SHA-256 \(Hex.encode(key))) with different "
                    + "docType scopes (\(scope(earlier)); \(scope(anchor))); keep one of them"
            }
        }
        return nil
    }

    /// The `*.crl` files of those of `paths` that are folders: a trust folder may carry its issuers' CRLs beside their
    /// certificates (the certificate loader skips them). Sorted by name within each folder.
    public static func crlFiles(in paths: [String]) -> [String] {
        paths.filter { TrustStore.isDirectory($0) == true }.flatMap { path -> [String] in
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
}

extension VICALVerification {
    /// How an entry of this list is recorded in a trust store: its docTypes, the list's name and nextUpdate.
    public func provenance(of entry: VICAL.Entry) -> AnchorProvenance {
        AnchorProvenance(docTypes: entry.docTypes,
                         source: "VICAL \(vical.provider)" + (vical.issueID.map { " issue \($0)" } ?? "") + " of \(vical.date)",
                         listNextUpdate: vical.nextUpdate?.date)
    }
}
