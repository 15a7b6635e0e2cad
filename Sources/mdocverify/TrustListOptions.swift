import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import RevocationFetch
import Verifier

/// A signed trust list kind the `trust` subcommands verify, import and fetch: what differs between VICALs and LoTEs
/// in their shared options and flows.
protocol SignedListKind {
    /// The list's kind, shared with the server: its noun, size limit, Accept header, carried certificates and
    /// verification.
    static var kind: TrustListKind { get }
    /// The `--root` help.
    static var rootHelp: String { get }
    /// What to do without a pinned root.
    static var pinHint: String { get }
    /// What `--allow-rollback` accepts.
    static var rollbackHelp: String { get }
    /// What the certificates the list carries (where `--root-sha256` is resolved) are called.
    static var carrier: String { get }
    /// What an import refuses as a rollback, in words.
    static var rollbackRule: String { get }
}

extension SignedListKind {
    static var noun: String { kind.noun }
    static var maxBytes: Int { kind.maxBytes }
    static var accept: String { kind.accept }
    static var signerUntrusted: ErrorCode { kind.signerUntrusted }
    static func carriedCertificates(_ bytes: [UInt8]) -> [Certificate] { kind.carriedCertificates(bytes) }

    /// `trust <kind> fetch`'s abstract and discussion.
    static var fetchCommand: CommandConfiguration {
        CommandConfiguration(
            commandName: "fetch",
            abstract: "Download a \(noun), verify it against a pinned root and import it into a trust folder (as import does).",
            discussion: """
                The download is http or https only, at most \(maxBytes >> 20) MB and 3 redirects within --timeout, and reaches \
                only public addresses unless --fetch-allow names the host or network (checked after name resolution and on \
                every redirect). The list is then verified and imported exactly as `trust \(noun.lowercased()) import` does: \
                \(rollbackRule) unless --allow-rollback is given. Exit status: 0 imported, 1 not imported (the download failed \
                or the list was refused), 2 a usage problem.
                """)
    }
}

enum VICALKind: SignedListKind {
    static let kind = TrustListKind.vical
    static let rootHelp = "A pinned VICAL root, PEM or DER (repeatable)."
    static let pinHint = "pin a VICAL root with --root or --root-sha256"
    static let rollbackHelp = "Accept a list older than the highest issue already imported into --out (or one without an issue ID)."
    static let carrier = "the VICAL's x5chain"
    static let rollbackRule = "a lower vicalIssueID than the highest one the folder has accepted, or a list without one after one with, is refused (vical.rollback)"
}

enum LoTEKind: SignedListKind {
    static let kind = TrustListKind.lote
    static let rootHelp = "A pinned LoTE signer root, PEM or DER: the scheme operator's signer certificate or the CA that issued it (repeatable)."
    static let pinHint = "pin the LoTE's signer (or its CA) with --root or --root-sha256"
    static let rollbackHelp = "Accept a list older than the highest sequence already imported into --out."
    static let carrier = "the LoTE's x5c"
    static let rollbackRule = "a lower LoTESequenceNumber than the highest one the folder has accepted is refused (lote.rollback)"
}

/// The roots a list is verified against, or its refusal when no pin resolves (`ListPinOptions.roots(for:)`); read with
/// `get()` inside the verification, so the refusal is reported as the list's.
typealias PinnedRoots = Result<[Certificate], VerificationError>

/// What every `trust vical` and `trust lote` subcommand takes besides the list: the pinned roots, the time and the
/// profile.
struct ListPinOptions<Kind: SignedListKind>: ParsableArguments {
    @Option(name: .customLong("root"), help: ArgumentHelp(Kind.rootHelp))
    var roots: [String] = []

    @Option(name: .customLong("root-sha256"), help: ArgumentHelp("A pinned \(Kind.noun) root by the SHA-256 of its DER, hex, resolved among the list's own certificates (repeatable)."))
    var rootFingerprints: [String] = []

    @Option(help: "Verify as of this RFC 3339 time instead of now.")
    var at: String?

    @Option(help: "default (a stale list is reported) or strict (a stale list is refused).")
    var profile: CertificateProfile = .default

    /// The time to verify at.
    func time() throws -> Date { try InputFiles.time(at) }

    /// Refuses before any work when no root is pinned.
    func requirePin() throws {
        if roots.isEmpty && rootFingerprints.isEmpty { throw UsageFailure(Kind.pinHint) }
    }

    /// The pinned roots: the files given, and each fingerprint resolved among the list's own certificates, so the pin
    /// (not the list) decides which root is trusted. When no pin resolves (every fingerprint names a certificate the
    /// list does not carry) the list fails its pin: `<kind>.signer_untrusted`, a refusal (exit 1) like a list signed
    /// under another root, not a usage error.
    func roots(for bytes: [UInt8]) throws -> PinnedRoots {
        // Only the roots given: the default trust (the IACA bundle) never stands in for a list's root.
        var pinned = roots.isEmpty ? [] : try InputFiles.trustStore(roots).anchors
        var unmatched: [String] = []
        if !rootFingerprints.isEmpty {
            let carried = Kind.carriedCertificates(bytes)
            for text in rootFingerprints {
                let fingerprint = try InputFiles.hex(text, what: "--root-sha256")
                if let match = carried.first(where: { $0.sha256Fingerprint == fingerprint }) { pinned.append(match) } else { unmatched.append(text) }
            }
        }
        guard pinned.isEmpty else {
            // Pins are alternatives (an old and a new root during a rotation), but one that names nothing may be a typo.
            for text in unmatched {
                let note = "note: --root-sha256 \(text) names no certificate in \(Kind.carrier); the other pins decide"
                FileHandle.standardError.write(Data((TerminalText.escaped(note) + "\n").utf8))
            }
            return .success(pinned)
        }
        guard !unmatched.isEmpty else { throw UsageFailure(Kind.pinHint) }
        return .failure(VerificationError(Kind.signerUntrusted, "no certificate in \(Kind.carrier) has the pinned SHA-256 "
            + "\(unmatched.joined(separator: ", ")): the list is not signed under the pinned root (if it does not carry its root, "
            + "pin that root with --root)"))
    }
}

/// Where `trust vical|lote import|fetch` write, and whether they accept an older list.
struct ListImportOptions<Kind: SignedListKind>: ParsableArguments {
    @Option(help: "The trust folder to write into (created if missing); one folder per list.")
    var out: String

    @Flag(help: ArgumentHelp(Kind.rollbackHelp))
    var allowRollback = false
}

/// How `trust vical fetch` and `trust lote fetch` download: the destinations allowed and the time.
struct ListDownloadOptions: ParsableArguments {
    @Option(name: .customLong("fetch-allow"), help: "A host name or CIDR network the download may reach although not public (a list hosted internally); repeatable. Loopback, private, link-local and unique-local addresses are refused otherwise.")
    var fetchAllow: [String] = []

    @Option(help: "Seconds for the download, redirects included (more than 0, at most 60).")
    var timeout: Double = 10

    /// Downloads `url` as a `Kind` list, resolves the pinned roots against it and hands both to `importing`; a failed
    /// download prints `NOT IMPORTED — …` and is `.rejected`.
    func fetch<Kind: SignedListKind>(_ url: String, pins: ListPinOptions<Kind>,
                     importing: (_ bytes: [UInt8], _ roots: PinnedRoots) throws -> ExitStatus) throws -> ExitStatus {
        guard timeout > 0 && timeout <= 60 else { throw UsageFailure("--timeout must be more than 0 and at most 60 seconds") }
        var settings = FetchSettings()
        settings.timeout = .milliseconds(Int64(timeout * 1000))
        settings.maxBytes = Kind.maxBytes
        settings.allowedDestinations = try FetchDestination.parsing(fetchAllow: fetchAllow)
        let scheme = URLComponents(string: url)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { throw UsageFailure("the URL \(InputQuote.short(url)) is not an http or https URL") }
        try pins.requirePin()
        _ = try pins.time()  // a bad --at is a usage error before any download
        switch Self.download(url, accept: Kind.accept, settings: settings) {
        case .success(let bytes):
            return try importing(bytes, try pins.roots(for: bytes))
        case .failure(let failure):
            print(TerminalText.escaped("NOT IMPORTED — the download failed (\(failure.category.rawValue)): \(Self.explain(failure, kind: Kind.self))"))
            return .rejected
        }
    }

    /// What to do about a failed download.
    static func explain<Kind: SignedListKind>(_ failure: BoundedDownload.Failure, kind: Kind.Type) -> String {
        switch failure.category {
        case .refusedDestination:
            return "the URL, a redirect or an address its host resolves to is not a public address; pass --fetch-allow with "
                + "the host or network if the list is hosted internally"
        case .tooLarge:
            return "the answer is larger than \(Kind.maxBytes >> 20) MB, which no \(Kind.noun) is"
        case .unreachable:
            return failure.detail
        }
    }


    /// Downloads on Swift's pool while the (synchronous) command waits on its own thread.
    static func download(_ url: String, accept: String, settings: FetchSettings) -> Result<[UInt8], BoundedDownload.Failure> {
        blocking { () async -> Result<[UInt8], BoundedDownload.Failure> in
            do throws(BoundedDownload.Failure) {
                return .success(try await BoundedDownload(settings: settings).get(url, accept: accept))
            } catch {
                return .failure(error)
            }
        }
    }
}
