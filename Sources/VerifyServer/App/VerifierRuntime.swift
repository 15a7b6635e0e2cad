import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import RevocationFetch
import Verifier

/// What the configuration's files yield: the decryption keys, the trust store and every format's request flow.
///
/// The flows come from the runtime's `FormatRegistry` (`.standard` unless a test registers a format of its own), built
/// on the keys and trust store. Loading reports one message per unreadable
/// key, non-P-256 key, Apple test key outside test mode, and an unreadable or empty trust store.
public struct VerifierRuntime: Sendable {
    /// The configuration the runtime was loaded from.
    public let configuration: ServerConfiguration
    /// The trust anchors: the configured trust files (or the embedded production bundle) plus the IACAs of every
    /// configured VICAL.
    public let trustStore: TrustStore
    /// The formats this server knows; every route asks it, never a built-in list.
    public let formats: FormatRegistry
    /// The formats this server offers, by format, from `formats`.
    public let flows: [VerificationReport.Format: any RequestFlow]
    /// The Annex C reader identity that signs web requests, when configured.
    public let readerIdentity: ReaderIdentity?
    /// The number of decryption keys loaded.
    public let keyCount: Int
    /// The VICALs whose IACAs are in `trustStore`, as verified at start.
    let vicals: [TrustLoader.LoadedVICAL]
    /// The VICALs and LoTEs with a `url` that have no usable downloaded copy (the start downloads them or refuses).
    let pendingLists: [TrustLoader.Pending]
    /// The LoTEs (EU trusted lists) whose anchors are in `trustStore`, as verified at load.
    let lotes: [TrustLoader.LoadedLoTE]
    /// The time VICALs are judged at (fresh or stale), kept across reloads.
    let trustTime: @Sendable () -> Date
    /// What the flows were built on, so a fetcher can be attached without reading the files again.
    let environment: FlowEnvironment
    /// CRLs and status tokens from the configured files.
    let revocationFiles: StaticRevocationSource?
    /// Fetches status lists (and, opt-in, CRLs) behind the files; outlives reloads.
    public let fetcher: RevocationFetcher?

    /// Loads the keys, trust files, VICALs, reader identity and revocation files the configuration names.
    ///
    /// Throws `ConfigurationProblems` listing every problem, `earlierProblems` (from reading the configuration)
    /// first, then `configuration.problems`, then those met loading files.
    ///
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - earlierProblems: Problems already found, e.g. by `ConfigurationLoader.read(file:environment:)`.
    ///   - fetcher: The server's revocation list fetcher (kept across reloads); nil verifies with the files only.
    ///   - formats: The formats the server serves.
    public static func load(_ configuration: ServerConfiguration, earlierProblems: [String] = [],
                            fetcher: RevocationFetcher? = nil, formats: FormatRegistry = .standard) throws(ConfigurationProblems) -> VerifierRuntime {
        let fixed = configuration.verificationTime
        return try load(configuration, earlierProblems: earlierProblems, fetcher: fetcher, formats: formats, trustTime: { fixed ?? Date() })
    }

    /// `load(_:earlierProblems:fetcher:formats:)` judging VICALs at `trustTime()`.
    static func load(_ configuration: ServerConfiguration, earlierProblems: [String] = [], fetcher: RevocationFetcher?,
                     formats: FormatRegistry = .standard, trustTime: @escaping @Sendable () -> Date) throws(ConfigurationProblems) -> VerifierRuntime {
        var problems = earlierProblems + configuration.problems(formats: formats)
        let keys = loadDecryptionKeys(configuration, problems: &problems)

        let trust = TrustLoader.load(configuration, at: trustTime(), problems: &problems)
        let trustStore = trust?.store

        let reader = ReaderIdentityLoader.load(
            keyPath: configuration.readerKeyPath, certificatePaths: configuration.readerCertificatePaths, problems: &problems)

        if configuration.readerKeyPath == nil || reader != nil {
            problems += configuration.openID4VPProfile.requestProblems(reader: reader, responseMode: configuration.openID4VPResponseMode)
                .map { "openid4vpProfile \(configuration.openID4VPProfile.rawValue): \($0)" }
        }
        let revocationSource = loadRevocationFiles(configuration, problems: &problems)

        guard problems.isEmpty, let trustStore else { throw ConfigurationProblems(problems) }
        let verifierConfiguration = VerifierConfiguration(
            trustStore: trustStore, profile: configuration.profile, clockSkew: configuration.clockSkew, testMode: configuration.testMode,
            revocation: configuration.revocation, revocationSource: revocationSource)
        let environment = FlowEnvironment(configuration: verifierConfiguration, recipientKeys: keys,
                                          merchantID: configuration.merchantID, teamID: configuration.teamID, readerIdentity: reader,
                                          issuerIdentifiersInRequests: configuration.requestIssuerIdentifiers,
                                          openID4VPResponseMode: configuration.openID4VPResponseMode,
                                          openID4VPProfile: configuration.openID4VPProfile)
        do {
            return try VerifierRuntime(configuration: configuration, formats: formats, trustStore: trustStore, readerIdentity: reader, keyCount: keys.count,
                                       vicals: trust?.vicals ?? [], pendingLists: trust?.pending ?? [], lotes: trust?.lotes ?? [], trustTime: trustTime,
                                       environment: environment, revocationFiles: revocationSource, fetcher: fetcher)
        } catch {
            throw ConfigurationProblems(["decryption keys: \(error.message)"])
        }
    }

    /// The configured decryption keys that load and suit APPLE-HPKE-v1; one problem per file that does not.
    private static func loadDecryptionKeys(_ configuration: ServerConfiguration, problems: inout [String]) -> [PrivateKey] {
        var keys: [PrivateKey] = []
        for path in configuration.decryptionKeyPaths {
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("decryption key \(path): cannot read the file")
                continue
            }
            let key: PrivateKey
            do {
                key = try PrivateKey(pemEncoded: String(decoding: data, as: UTF8.self))
            } catch {
                problems.append("decryption key \(path): not a PEM private key OpenSSL can load")
                continue
            }
            // Checked one key at a time so each message names its file.
            do {
                _ = try RecipientKeyRing(keys: [key], allowTestKey: configuration.testMode)
                keys.append(key)
            } catch {
                switch error.code {
                case .envelopeTestKey:
                    problems.append("decryption key \(path): Apple's published test key is refused outside test mode")
                default:
                    problems.append("decryption key \(path): is \(key.curve.rawValue); APPLE-HPKE-v1 needs a P-256 key")
                }
            }
        }
        return keys
    }

    /// The CRLs (configured, and those in the trust folders) and status-list files, when there are any.
    private static func loadRevocationFiles(_ configuration: ServerConfiguration, problems: inout [String]) -> StaticRevocationSource? {
        do {
            let crls = configuration.crlPaths + TrustFolder.crlFiles(in: configuration.trustStorePaths)
            if !crls.isEmpty || !configuration.statusListPaths.isEmpty {
                return try RevocationFiles.source(crls: crls, statusLists: configuration.statusListPaths)
            }
        } catch {
            problems.append("revocation: \(error.message)")
        }
        return nil
    }

    private init(configuration: ServerConfiguration, formats: FormatRegistry, trustStore: TrustStore, readerIdentity: ReaderIdentity?, keyCount: Int,
                 vicals: [TrustLoader.LoadedVICAL], pendingLists: [TrustLoader.Pending], lotes: [TrustLoader.LoadedLoTE],
                 trustTime: @escaping @Sendable () -> Date,
                 environment: FlowEnvironment, revocationFiles: StaticRevocationSource?, fetcher: RevocationFetcher?) throws(VerificationError) {
        var environment = environment
        if let fetcher { environment.configuration.revocationSource = fetcher.source(files: revocationFiles) }
        self.configuration = configuration
        self.trustStore = trustStore
        self.formats = formats
        self.flows = Dictionary(uniqueKeysWithValues: try formats.flows(environment).map { ($0.format, $0) })
        self.readerIdentity = readerIdentity
        self.keyCount = keyCount
        self.vicals = vicals
        self.pendingLists = pendingLists
        self.lotes = lotes
        self.trustTime = trustTime
        self.environment = environment
        self.revocationFiles = revocationFiles
        self.fetcher = fetcher
    }

    /// The same runtime with `fetcher` behind its revocation files.
    func attaching(_ fetcher: RevocationFetcher) -> VerifierRuntime {
        // The flows were built from this environment once already, so they build again.
        (try? VerifierRuntime(configuration: configuration, formats: formats, trustStore: trustStore, readerIdentity: readerIdentity, keyCount: keyCount,
                              vicals: vicals, pendingLists: pendingLists, lotes: lotes, trustTime: trustTime, environment: environment,
                              revocationFiles: revocationFiles, fetcher: fetcher)) ?? self
    }

    /// The same runtime judging VICALs at `trustTime()` from its next reload on.
    func judgingVICALs(at trustTime: @escaping @Sendable () -> Date) -> VerifierRuntime {
        (try? VerifierRuntime(configuration: configuration, formats: formats, trustStore: trustStore, readerIdentity: readerIdentity, keyCount: keyCount,
                              vicals: vicals, pendingLists: pendingLists, lotes: lotes, trustTime: trustTime, environment: environment,
                              revocationFiles: revocationFiles, fetcher: fetcher)) ?? self
    }

    /// Runs one verification, fetching the revocation lists it needs first when a fetcher is attached.
    /// `body` notes in the record it is given the lists its revocation checks would have to fetch.
    func verifying(_ body: (RevocationLookups?) -> VerificationReport) async -> VerificationReport {
        guard let fetcher else { return body(nil) }
        return await fetcher.resolving { lookups in body(lookups) }
    }
}
