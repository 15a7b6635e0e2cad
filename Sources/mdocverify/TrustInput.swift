import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// `--trust` files and folders as the CLI reads them: what `TrustFolder` reads (PEM or DER certificates, manifests),
/// plus a file given directly that holds hex or base64 text of one DER certificate (test vectors ship such files).
/// When loading fails, the message names a file that is not a certificate and says what it is.
enum TrustInput {
    /// A certificate file read beside the loader: never larger than this.
    private static let maxTextFileBytes = 1 << 20

    /// The trust store of `paths` (not empty).
    static func store(_ paths: [String]) throws -> TrustStore {
        try load(paths, listingFiles: false).store
    }

    /// The trust store of `paths` and the certificates of each file, for `trust list`.
    static func files(_ paths: [String]) throws -> (store: TrustStore, files: [(file: String, certificates: [Certificate])]) {
        let loaded = try load(paths, listingFiles: true)
        return (loaded.store, loaded.files)
    }

    private static func load(_ paths: [String], listingFiles: Bool) throws -> (store: TrustStore, files: [(file: String, certificates: [Certificate])]) {
        var textCertificates: [(file: String, certificate: Certificate)] = []
        var loaderPaths: [String] = []
        for path in paths {
            if let certificate = textCertificate(path) {
                textCertificates.append((path, certificate))
            } else {
                loaderPaths.append(path)
            }
        }
        do {
            let folder = loaderPaths.isEmpty ? TrustStore(anchors: [], allowNonSelfSignedAnchors: true)
                                             : try TrustFolder.trustStore(paths: loaderPaths)
            let needFiles = listingFiles || !textCertificates.isEmpty
            let files = needFiles && !loaderPaths.isEmpty ? try TrustStore.loadFiles(paths: loaderPaths) : []
            guard !textCertificates.isEmpty else { return (folder, files) }
            var origin: [[UInt8]: String] = [:]
            for (file, certificates) in files { for certificate in certificates { origin[certificate.sha256Fingerprint] = file } }
            let scoped = folder.anchors.map {
                TrustFolder.ScopedAnchor(certificate: $0, docTypes: folder.provenance[$0.sha256Fingerprint]?.docTypes,
                                         origin: origin[$0.sha256Fingerprint] ?? "a trust folder")
            } + textCertificates.map { TrustFolder.ScopedAnchor(certificate: $0.certificate, docTypes: nil, origin: $0.file) }
            if let conflict = TrustFolder.scopeConflict(scoped) { throw UsageFailure("cannot load trust anchors: \(conflict)") }
            // A certificate given directly is trusted directly, even when a folder's manifest lists it from a list.
            var provenance = folder.provenance
            for text in textCertificates { AnchorProvenance.record(AnchorProvenance(), for: text.certificate.sha256Fingerprint, in: &provenance) }
            let store = TrustStore(anchors: folder.anchors + textCertificates.map(\.certificate), allowNonSelfSignedAnchors: true,
                                   provenance: provenance)
            return (store, files + textCertificates.map { ($0.file, [$0.certificate]) })
        } catch let failure as UsageFailure {
            throw failure
        } catch {
            throw UsageFailure(diagnosis(paths) ?? "cannot load trust anchors: \(error)")
        }
    }

    /// The certificate of a regular file holding hex or base64 text of one DER certificate, else nil.
    private static func textCertificate(_ path: String) -> Certificate? {
        guard let bytes = smallFile(path), case .text(.derCertificate, _) = InputKind.of(bytes),
              let der = BinaryText.decode(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return try? Certificate(derEncoded: der)
    }

    /// A message naming the first file the loader reads that is not a PEM or DER certificate, saying what it is.
    private static func diagnosis(_ paths: [String]) -> String? {
        for path in paths {
            for file in isDirectory(path) == true ? certificateFiles(in: path) : [path] {
                guard let bytes = smallFile(file) else { continue }
                let kind = InputKind.of(bytes)
                switch kind {
                case .pem("CERTIFICATE"), .derCertificate, .other:
                    continue
                case .text(.derCertificate, _):
                    return "trust file \(file) is \(kind.noun); a trust folder reads PEM or binary DER files: convert it "
                        + "(e.g. xxd -r -p \(file) > \(file).der, then remove the text file) or pass the file itself with --trust"
                default:
                    let belongs = kind.isCertificate ? nil : kind.belongs()
                    return "trust file \(file) is \(kind.noun), not a certificate" + (belongs.map { "; \($0)" } ?? "")
                        + "; --trust takes PEM or DER certificates (a file given directly may also be hex or base64 of DER)"
                }
            }
        }
        return nil
    }

    /// The files `TrustStore.loadFiles` reads in a folder: `*.pem`, `*.crt`, `*.cer`, `*.der`, not hidden.
    private static func certificateFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted().filter { name in
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
            return ["pem", "crt", "cer", "der"].contains(name[name.index(after: dot)...].lowercased())
        }.map { prefix + $0 }
    }

    /// The bytes of a regular file of at most `maxTextFileBytes`, else nil.
    private static func smallFile(_ path: String) -> [UInt8]? {
        guard isDirectory(path) == false,
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size <= maxTextFileBytes,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return Array(data)
    }

    /// nil when nothing exists at `path`.
    private static func isDirectory(_ path: String) -> Bool? {
        var flag: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &flag) else { return nil }
        return flag.boolValue
    }
}
