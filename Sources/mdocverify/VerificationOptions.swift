import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import RevocationFetch
import Verifier

/// Options every `verify` format shares.
struct VerificationOptions: ParsableArguments {
    @Option(name: .customLong("trust"), help: "Trust anchor file or directory (PEM/DER, with its manifest.json scopes); repeatable. Default: the production bundle embedded in mdocverify.")
    var trust: [String] = []

    @Option(help: "Verification time, RFC 3339 (default: now).")
    var at: String?

    @Option(help: "JSON of what was requested: {\"documents\":[{\"docType\",\"nameSpaces\":{ns:{element:intentToRetain}}}]}")
    var request: String?

    @Option(help: "Certificate profile preset: default (security-relevant rules enforced, other Annex B deviations warn) or strict.")
    var profile: CertificateProfile = .default

    @Option(help: "When revocation status cannot be determined: off (no checks), soft (verify with a warning saying why) or hard (revocation.unknown). Revoked or suspended always rejects.")
    var revocation: RevocationPolicy = .soft

    @Option(name: .customLong("crl"), help: "CRL file for document signers (PEM or DER); repeatable. *.crl files in a --trust folder are read too.")
    var crls: [String] = []

    @Option(name: .customLong("status-list"), help: "Status list or identifier list token file (CWT, raw or hex), matched by its sub to the MSO's uri; repeatable.")
    var statusLists: [String] = []

    @Flag(help: "Fetch the status list or identifier list each MSO names (http/https only, 5 s, 16 MB, 3 redirects); files given with --status-list win.")
    var fetch = false

    @Flag(name: .customLong("fetch-crls"), help: "With --fetch, also fetch CRLs from the certificates' CRL distribution points.")
    var fetchCRLs = false

    @Option(name: .customLong("fetch-allow"), help: "With --fetch, a host name or CIDR network that may be reached although not public (lists hosted internally); repeatable. Loopback, private, link-local and unique-local addresses are refused otherwise.")
    var fetchAllow: [String] = []

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// The verifier's configuration and the revocation material behind it (files, and a fetcher with `--fetch`).
    func configuration(testMode: Bool) throws -> (VerifierConfiguration, RevocationRun) {
        var files: StaticRevocationSource?
        let crls = self.crls + TrustFolder.crlFiles(in: trust)
        if !crls.isEmpty || !statusLists.isEmpty {
            do {
                files = try RevocationFiles.source(crls: crls, statusLists: statusLists)
            } catch {
                throw UsageFailure(error.message)
            }
        }
        if fetchCRLs && !fetch { throw UsageFailure("--fetch-crls needs --fetch") }
        if !fetchAllow.isEmpty && !fetch { throw UsageFailure("--fetch-allow needs --fetch") }
        let allowed = try FetchDestination.parsing(fetchAllow: fetchAllow)
        var run = RevocationRun(source: files, fetcher: nil)
        if fetch {
            var settings = FetchSettings()
            settings.crlDistributionPoints = fetchCRLs
            settings.allowedDestinations = allowed
            let fetcher = RevocationFetcher(settings: settings)
            run = RevocationRun(source: fetcher.source(files: files), fetcher: fetcher)
        }
        let configuration = VerifierConfiguration(trustStore: try InputFiles.trustStore(trust), profile: profile, testMode: testMode,
                                                  revocation: revocation, revocationSource: run.source)
        return (configuration, run)
    }
}

/// One CLI verification's revocation material. With `--fetch`, `verify` runs the verification, fetches the lists
/// it needs (blocking: the commands are synchronous), and runs its revocation checks again on them.
struct RevocationRun {
    let source: (any RevocationSource)?
    let fetcher: RevocationFetcher?

    /// `body` notes in the record it is given the lists its revocation checks would have to fetch.
    func verify(_ body: (RevocationLookups?) -> VerificationReport) -> VerificationReport {
        guard let fetcher else { return body(nil) }
        let lookups = RevocationLookups()
        var report = body(lookups)
        let pending = PendingFetches(lookups)
        if !pending.isEmpty {
            blocking { await fetcher.fetch(pending) }
            report = lookups.finished(as: VerificationReport.self) ?? report
        }
        blocking { await fetcher.shutdown() }
        return report
    }
}

/// Runs `operation` on Swift's pool and waits for its value on the calling (main) thread, which is outside that pool:
/// the commands are synchronous.
func blocking<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) -> Value {
    let outcome = Locked<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await operation()
        outcome.withLockedValue { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = outcome.withLockedValue({ $0 }) else { preconditionFailure("the task signalled before storing its value") }
    return value
}

extension FetchDestination {
    /// The `--fetch-allow` entries; one that is neither a host name nor an address or network is a usage error.
    static func parsing(fetchAllow entries: [String]) throws -> [FetchDestination] {
        try entries.map { entry in
            guard let destination = FetchDestination(entry) else {
                throw UsageFailure("--fetch-allow \(InputQuote.short(entry)) is neither a host name nor an address or CIDR network")
            }
            return destination
        }
    }
}

extension CertificateProfile: ExpressibleByArgument {}
extension RevocationPolicy: ExpressibleByArgument {}
