import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// What `trust vical import|fetch` and `trust lote import|fetch` share: verify, print the refusal or write the trust
/// folder (aside, then swapped in whole) with its manifest, and read back what earlier imports recorded.
enum TrustListImport {
    static let manifestName = TrustFolder.manifestName

    /// An import's steps, the same for every kind and in the server's order: verify, check that the folder keeps this
    /// very list (`sameList` throws a usage problem otherwise), refuse a list older than `previous` unless
    /// `allowRollback`, then `write` imports it and returns the line to print. A refusal prints
    /// `REJECTED <noun> — <code>: <message>` and is `.rejected`.
    static func run(_ kind: TrustListKind, verify: () throws(VerificationError) -> VerifiedTrustList, previous: UInt64?,
                    allowRollback: Bool, sameList: (VerifiedTrustList) throws -> Void,
                    write: (VerifiedTrustList) throws -> String) throws -> ExitStatus {
        func rejected(_ error: VerificationError) -> ExitStatus {
            print(TerminalText.escaped("REJECTED \(kind.noun) — \(error.code.rawValue): \(error.message)"))
            return .rejected
        }
        let verified: VerifiedTrustList
        do throws(VerificationError) {
            verified = try verify()
        } catch {
            return rejected(error)
        }
        try sameList(verified)
        if !allowRollback, let rollback = verified.rollback(previous: previous) { return rejected(rollback) }
        print(TerminalText.escaped(try write(verified)))
        return .verified
    }

    /// `trust vical|lote verify`: verifies with `verify` and prints the list (`text`, or `json` with `asJSON`), or the
    /// refusal.
    static func report<Verified>(noun: String, asJSON: Bool, verify: () throws(VerificationError) -> Verified,
                                 text: (Verified) -> String, json: (Verified) -> JSONValue) -> ExitStatus {
        do throws(VerificationError) {
            let verified = try verify()
            print(asJSON ? json(verified).serialized(pretty: true) : text(verified))
            return .verified
        } catch {
            print(asJSON ? JSONValue.object([("verified", .bool(false)), ("error", error.json)]).serialized(pretty: true)
                         : TerminalText.escaped("REJECTED \(noun) — \(error.code.rawValue): \(error.message)"))
            return .rejected
        }
    }

    /// One certificate file of an import and its manifest entry.
    struct Anchor {
        let certificate: Certificate
        /// The end of the file name after the subject's slug (a hash prefix, without `.pem`).
        let suffix: String
        /// The manifest entry's fields besides `file`.
        let fields: [(String, JSONValue)]
    }

    /// Writes each anchor as `<subject slug>-<suffix>.pem` and `manifest.json` (`manifest` plus the entries) into a new
    /// folder beside `directory`, then swaps it in, so the folder never holds a mix of two imports and an anchor the new
    /// list dropped is gone. Returns how many certificates it wrote.
    static func write(_ anchors: [Anchor], fallbackName: String, manifest: [(String, JSONValue)], into directory: String) throws -> Int {
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
        for anchor in anchors {
            var name = slug(anchor.certificate, fallback: fallbackName) + "-" + anchor.suffix + ".pem"
            if names.contains(name) { name = name.replacingOccurrences(of: ".pem", with: "-\(names.count).pem") }
            names.insert(name)
            guard manager.createFile(atPath: staging.appendingPathComponent(name).path, contents: Data(anchor.certificate.pemEncoded.utf8)) else {
                throw UsageFailure("cannot write \(staging.path)/\(name)")
            }
            entries.append(.object([("file", .string(name))] + anchor.fields))
        }
        let document = JSONValue.object(manifest + [("entries", .array(entries))])
        guard manager.createFile(atPath: staging.appendingPathComponent(manifestName).path,
                                 contents: Data((document.serialized(pretty: true) + "\n").utf8)) else {
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

    /// The certificate's CN (else its whole subject), lower-case letters, digits and dashes only, at most 48 characters;
    /// `fallback` when nothing is left.
    static func slug(_ certificate: Certificate, fallback: String) -> String {
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
        return slug.isEmpty ? fallback : slug
    }

    /// The manifest of earlier imports into `directory`; nil for a new or empty folder.
    ///
    /// - Throws: `UsageFailure` when the folder holds files but no import manifest (it is not an import folder) or a
    ///   manifest that cannot be read.
    static func previousManifest(in directory: String) throws -> JSONValue? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return nil }
        let names = ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }
        guard manager.fileExists(atPath: directory + "/" + manifestName) else {
            if names.isEmpty { return nil }
            throw UsageFailure("\(directory) holds files but no \(manifestName) of an earlier import; import into an empty folder")
        }
        guard let data = manager.contents(atPath: directory + "/" + manifestName), let manifest = JSONValue.read(data), manifest.isObject else {
            throw UsageFailure("\(directory)/\(manifestName) is not readable JSON")
        }
        return manifest
    }

    /// The largest of the manifest's numbers under `keys`.
    static func highest(_ manifest: JSONValue?, _ keys: String...) -> UInt64? {
        keys.compactMap { manifest?[$0]?.unsignedInteger }.max()
    }
}
