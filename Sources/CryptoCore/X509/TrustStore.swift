#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims

/// A set of trusted anchors (IACAs) with fixed-time RFC 5280 path validation through OpenSSL's X509_STORE.
///
/// The X509_STORE is built once and only read afterwards; X509_verify_cert takes the store's lock for
/// lookups, so one TrustStore serves concurrent validations. No purpose/EKU check is configured: mdoc EKUs
/// are not TLS purposes. Extended key usage is an extension OpenSSL handles, so a critical EKU such as
/// the DS's 1.0.18013.5.1.2 does not cause UNHANDLED_CRITICAL_EXTENSION (checked with the Annex D DS,
/// whose EKU is critical, and with built certificates in the tests).
public final class TrustStore: @unchecked Sendable {
    /// The anchors, without duplicates, in the order given.
    public let anchors: [Certificate]
    /// Whether anchors need not be self-signed (X509_V_FLAG_PARTIAL_CHAIN), e.g. the document signer itself as anchor.
    public let allowsNonSelfSignedAnchors: Bool
    /// The docTypes an anchor may anchor and the list it came from, by the SHA-256 of its DER; an anchor without an
    /// entry anchors anything and has no recorded source.
    public let provenance: [[UInt8]: AnchorProvenance]

    private let store: OpaquePointer
    private let anchorsByPointer: [OpaquePointer: Certificate]
    private let anchorKeyIdentifiers: [[UInt8]?]

    /// Creates a store of `anchors`, dropping duplicates.
    ///
    /// - Parameters:
    ///   - anchors: The trusted certificates, in order of preference.
    ///   - allowNonSelfSignedAnchors: Whether an anchor that is not self-signed (e.g. an intermediate or the document
    ///     signer itself) may end a path (X509_V_FLAG_PARTIAL_CHAIN).
    ///   - provenance: Scope and source of anchors, keyed by the SHA-256 of their DER; anchors without an entry
    ///     anchor any docType.
    public init(anchors: [Certificate], allowNonSelfSignedAnchors: Bool = false, provenance: [[UInt8]: AnchorProvenance] = [:]) {
        var seen = Set<Certificate>()
        let unique = anchors.filter { seen.insert($0).inserted }
        guard let store = X509_STORE_new() else { fatalError("OpenSSL could not allocate an X509_STORE") }
        for anchor in unique {
            X509_STORE_add_cert(store, anchor.x509)  // takes its own reference
        }
        if allowNonSelfSignedAnchors {
            X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        }
        ERR_clear_error()
        self.store = store
        self.anchors = unique
        self.allowsNonSelfSignedAnchors = allowNonSelfSignedAnchors
        self.provenance = provenance
        self.anchorsByPointer = Dictionary(unique.map { ($0.x509, $0) }, uniquingKeysWith: { first, _ in first })
        self.anchorKeyIdentifiers = unique.map(\.subjectKeyIdentifier)
    }

    deinit { X509_STORE_free(store) }

    /// True when the store has no anchors.
    public var isEmpty: Bool { anchors.isEmpty }

    /// Validates a path from `leaf` (with untrusted `intermediates`) to an anchor, as of `time` (whole seconds).
    ///
    /// OpenSSL checks from the anchor down, so when several certificates fail the deepest one is reported;
    /// it treats a certificate as expired from the second of its notAfter on (RFC 5280 would include that second).
    public func validate(leaf: Certificate, intermediates: [Certificate] = [], at time: Date) -> ChainValidationResult {
        guard let context = X509_STORE_CTX_new() else { return .failed(Self.internalFailure("X509_STORE_CTX_new failed")) }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = cshims_sk_X509_new_null() else { return .failed(Self.internalFailure("stack allocation failed")) }
        defer { cshims_sk_X509_free(untrusted) }
        defer { ERR_clear_error() }

        return withExtendedLifetime((leaf, intermediates)) {
            for certificate in intermediates {
                guard cshims_sk_X509_push(untrusted, certificate.x509) > 0 else {
                    return .failed(Self.internalFailure("stack push failed"))
                }
            }
            guard X509_STORE_CTX_init(context, store, leaf.x509, untrusted) == 1 else {
                return .failed(Self.internalFailure("X509_STORE_CTX_init failed"))
            }
            X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(ASN1Time.epochSeconds(time)))

            if X509_verify_cert(context) == 1 {
                return .trusted(chain: chain(of: context, leaf: leaf, intermediates: intermediates))
            }
            let code = X509_STORE_CTX_get_error(context)
            let depth = Int(X509_STORE_CTX_get_error_depth(context))
            var reason = ChainValidationFailure.reason(forVerifyError: code)
            var message = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            if let current = X509_STORE_CTX_get_current_cert(context) {
                // OpenSSL will not look for the issuer of a certificate with a malformed or duplicated
                // extension and reports "unable to get issuer"; name the real cause.
                if X509_get_extension_flags(current) & UInt32(EXFLAG_INVALID) != 0 {
                    reason = .invalidCertificate
                    message += "; the certificate has a malformed or duplicated extension"
                }
                if let text = X509Support.takeString(cshims_x509_name_to_string(X509_get_subject_name(current))) {
                    message += " (subject \(text))"
                }
            }
            return .failed(ChainValidationFailure(reason: reason, depth: depth, message: message, opensslErrorCode: Int(code)))
        }
    }

    /// Returns the best issuer candidate for `leaf` among the anchors, or nil when none matches.
    ///
    /// The candidate is the leaf itself when it is an anchor that may stand alone,
    /// else an anchor whose subject matches the leaf's issuer and whose SKI equals the leaf's AKI when both are
    /// present; among several, the first whose key verifies the leaf's signature.
    public func anchor(for leaf: Certificate) -> Certificate? {
        if let itself = anchors.first(where: { $0 == leaf }), allowsNonSelfSignedAnchors || leaf.isSelfIssued {
            return itself
        }
        let leafKeyIdentifier = leaf.authorityKeyIdentifier
        let candidates = anchors.indices.filter { index in
            guard leaf.issuerMatchesSubject(of: anchors[index]) else { return false }
            guard let leafKeyIdentifier, let anchorKeyIdentifier = anchorKeyIdentifiers[index] else { return true }
            return leafKeyIdentifier == anchorKeyIdentifier
        }.map { anchors[$0] }
        if candidates.count > 1, let verified = candidates.first(where: { leaf.isSignedBy($0) }) {
            return verified
        }
        return candidates.first
    }

    /// Creates a store from PEM (several certificates per file allowed) or DER files.
    ///
    /// A directory contributes every `*.pem`, `*.crt`, `*.cer` and `*.der` file directly inside it, in name order. Any
    /// certificate may be an anchor, root or not (operators pin intermediates and document signers). A folder's
    /// manifest.json (scopes, sources) is read by `TrustFolder` in Mdoc, which passes it here as `provenance`. Throws
    /// `CryptoError(.invalidInput)` naming the path on a missing, unreadable or invalid file.
    public static func load(paths: [String], allowNonSelfSignedAnchors: Bool = true,
                            provenance: [[UInt8]: AnchorProvenance] = [:]) throws -> TrustStore {
        TrustStore(anchors: try loadFiles(paths: paths).flatMap(\.certificates),
                   allowNonSelfSignedAnchors: allowNonSelfSignedAnchors, provenance: provenance)
    }

    /// Returns the certificates of every file `load(paths:allowNonSelfSignedAnchors:provenance:)` reads, with the file
    /// each came from.
    ///
    /// Throws `CryptoError(.invalidInput)` naming the path on a missing, unreadable or invalid file.
    public static func loadFiles(paths: [String]) throws -> [(file: String, certificates: [Certificate])] {
        var files: [(file: String, certificates: [Certificate])] = []
        for path in paths {
            for file in try certificateFiles(at: path) {
                files.append((file, try loadCertificates(file: file)))
            }
        }
        return files
    }

    // MARK: Private

    private static let certificateFileExtensions: Set<String> = ["pem", "crt", "cer", "der"]

    private static func certificateFiles(at path: String) throws -> [String] {
        guard let pathIsDirectory = isDirectory(path) else {
            throw CryptoError(.invalidInput, "\(path): no such file or directory")
        }
        guard pathIsDirectory else { return [path] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw CryptoError(.invalidInput, "\(path): cannot list directory (\(error))")
        }
        let directory = path.hasSuffix("/") ? path : path + "/"
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let dot = name.lastIndex(of: ".") else { continue }
            let fileExtension = String(name[name.index(after: dot)...]).lowercased()
            let file = directory + name
            if certificateFileExtensions.contains(fileExtension), isDirectory(file) == false {
                files.append(file)
            }
        }
        return files
    }

    /// Whether `path` is a directory; nil when nothing exists there (symbolic links followed).
    package static func isDirectory(_ path: String) -> Bool? {
        #if canImport(FoundationEssentials)
        var flag = false
        #else
        var flag: ObjCBool = false
        #endif
        guard FileManager.default.fileExists(atPath: path, isDirectory: &flag) else { return nil }
        #if canImport(FoundationEssentials)
        return flag
        #else
        return flag.boolValue
        #endif
    }

    private static func loadCertificates(file: String) throws -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CryptoError(.invalidInput, "\(file): cannot read file")
        }
        let bytes = [UInt8](data)
        do {
            if bytes.firstRange(of: Array("-----BEGIN".utf8)) != nil {
                return try Certificate.certificates(fromPEM: String(decoding: bytes, as: UTF8.self))
            }
            return [try Certificate(derEncoded: bytes)]
        } catch let error as CryptoError {
            throw CryptoError(.invalidInput, "\(file): \(error.message)")
        }
    }

    /// The certificates of a verified chain, mapped back to our objects by X509 pointer
    /// (the store and the untrusted stack hold the very X509s we gave them).
    private func chain(of context: OpaquePointer, leaf: Certificate, intermediates: [Certificate]) -> [Certificate] {
        guard let stack = X509_STORE_CTX_get0_chain(context) else { return [leaf] }
        return (0..<max(cshims_sk_X509_num(stack), 0)).compactMap { index -> Certificate? in
            guard let x509 = cshims_sk_X509_value(stack, index) else { return nil }
            if x509 == leaf.x509 { return leaf }
            if let certificate = anchorsByPointer[x509] ?? intermediates.first(where: { $0.x509 == x509 }) {
                return certificate
            }
            return try? Certificate(copying: x509)
        }
    }

    private static func internalFailure(_ message: String) -> ChainValidationFailure {
        ChainValidationFailure(reason: .other, depth: 0, message: X509Support.drainErrors(message))
    }
}

extension Certificate {
    /// A separate Certificate re-parsed from a borrowed X509's encoding.
    convenience init(copying x509: OpaquePointer) throws {
        guard let encoded = OpenSSLCoding.encoded({ i2d_X509(x509, $0) }) else {
            throw CryptoError(.internalFailure, X509Support.drainErrors("i2d_X509 failed"))
        }
        try self.init(derEncoded: encoded)
    }
}
