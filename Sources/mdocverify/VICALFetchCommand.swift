import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import RevocationFetch
import Verifier

extension Trust {
    /// `mdocverify trust vical fetch`: `trust vical import` on a list downloaded from its provider.
    struct FetchVICAL: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download a VICAL, verify it against a pinned root and import it into a trust folder (as import does).",
            discussion: """
                The download is http or https only, at most 16 MB and 3 redirects within --timeout, and reaches only public \
                addresses unless --fetch-allow names the host or network (checked after name resolution and on every \
                redirect). The list is then verified and imported exactly as `trust vical import` does: a lower vicalIssueID \
                than the highest one the folder has accepted, or a list without one after one with, is refused \
                (vical.rollback) unless --allow-rollback is given. Exit status: 0 imported, 1 not imported (the download \
                failed or the list was refused), 2 a usage problem.
                """)

        @Option(help: "The VICAL's http or https URL.")
        var url: String

        @Option(name: .customLong("root"), help: "A pinned VICAL root, PEM or DER (repeatable).")
        var roots: [String] = []

        @Option(name: .customLong("root-sha256"), help: "A pinned VICAL root by the SHA-256 of its DER, hex (repeatable).")
        var rootFingerprints: [String] = []

        @Option(help: "Verify as of this RFC 3339 time instead of now.")
        var at: String?

        @Option(help: "default (a stale list is reported) or strict (a stale list is refused).")
        var profile: CertificateProfile = .default

        @Option(help: "The trust folder to write into (created if missing); one folder per VICAL provider.")
        var out: String

        @Flag(help: "Accept a list older than the highest issue already imported into --out (or one without an issue ID).")
        var allowRollback = false

        @Option(name: .customLong("fetch-allow"), help: "A host name or CIDR network the download may reach although not public (a list hosted internally); repeatable. Loopback, private, link-local and unique-local addresses are refused otherwise.")
        var fetchAllow: [String] = []

        @Option(help: "Seconds for the download, redirects included (more than 0, at most 60).")
        var timeout: Double = 10

        func run() throws {
            try runReportingExit {
                guard timeout > 0 && timeout <= 60 else { throw UsageFailure("--timeout must be more than 0 and at most 60 seconds") }
                var settings = FetchSettings()
                settings.timeout = .milliseconds(Int64(timeout * 1000))
                settings.allowedDestinations = try fetchAllow.map { entry in
                    guard let destination = FetchDestination(entry) else {
                        throw UsageFailure("--fetch-allow \(InputQuote.short(entry)) is neither a host name nor an address or CIDR network")
                    }
                    return destination
                }
                let scheme = URLComponents(string: url)?.scheme?.lowercased()
                guard scheme == "http" || scheme == "https" else {
                    throw UsageFailure("--url \(InputQuote.short(url)) is not an http or https URL")
                }
                if roots.isEmpty && rootFingerprints.isEmpty { throw UsageFailure("pin a VICAL root with --root or --root-sha256") }
                let time = try InputFiles.time(at)
                let bytes: [UInt8]
                switch Self.download(url, settings: settings) {
                case .success(let downloaded): bytes = downloaded
                case .failure(let failure):
                    print(TerminalText.escaped("NOT IMPORTED — the download failed (\(failure.category.rawValue)): \(Self.explain(failure))"))
                    return .rejected
                }
                let pinned = try VICALOptions.roots(roots, fingerprints: rootFingerprints, for: bytes)
                return try VICALImport.run(bytes, roots: pinned, at: time, profile: profile, source: Self.redacted(url), into: out,
                                           allowRollback: allowRollback)
            }
        }

        /// What to do about a failed download.
        static func explain(_ failure: BoundedDownload.Failure) -> String {
            switch failure.category {
            case .refusedDestination:
                return "the URL, a redirect or an address its host resolves to is not a public address; pass --fetch-allow with "
                    + "the host or network if the list is hosted internally"
            case .tooLarge:
                return "the answer is larger than 16 MB, which no VICAL is"
            case .unreachable:
                return failure.detail
            }
        }

        /// The URL without user info, query or fragment (the manifest records it; those may carry an access token).
        static func redacted(_ url: String) -> String {
            guard var parts = URLComponents(string: url) else { return url }
            parts.user = nil
            parts.password = nil
            parts.query = nil
            parts.fragment = nil
            return parts.string ?? url
        }

        /// Downloads on Swift's pool while the (synchronous) command waits on its own thread.
        static func download(_ url: String, settings: FetchSettings) -> Result<[UInt8], BoundedDownload.Failure> {
            let outcome = Locked<Result<[UInt8], BoundedDownload.Failure>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                do throws(BoundedDownload.Failure) {
                    let bytes = try await BoundedDownload(settings: settings).get(url, accept: "application/cose, application/cbor, */*;q=0.5")
                    outcome.withLockedValue { $0 = .success(bytes) }
                } catch {
                    outcome.withLockedValue { $0 = .failure(error) }
                }
                done.signal()
            }
            done.wait()
            return outcome.withLockedValue { $0 } ?? .failure(BoundedDownload.Failure(category: .unreachable, detail: "no answer"))
        }
    }
}
