import Foundation
import Logging
import Mdoc
import Verifier

/// Everything `verify-server` is configured with. Built by `ConfigurationLoader` from a JSON or YAML file and
/// `VERIFY_SERVER_*` environment variables; tests build it directly.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Apple merchant and team IDs, bound into the Apple session transcript.
    public var merchantID = ""
    public var teamID = ""
    /// PEM files of the P-256 decryption keys; a response's pkRHash picks one.
    public var decryptionKeyPaths: [String] = []
    /// Trust anchor files or folders (with their manifest.json scopes); empty uses the production bundle embedded
    /// in the binary.
    public var trustStorePaths: [String] = []
    /// VICALs whose IACAs are added to the trust store, each with the VICAL root pinned for it (PEM file). Verified at
    /// start; the server refuses to start on a bad signature or an untrusted signer.
    public var vicals: [VICALSource] = []
    /// How often the trust files are checked for changes (then reloaded, as on SIGHUP); 0 turns the check off.
    public var trustWatchInterval: TimeInterval = 60
    /// Accept Apple's published test key; every report and `/readyz` then say `test`. Off by default.
    public var testMode = false
    /// How long a created request can be verified.
    public var requestTTL: TimeInterval = 300
    /// Tolerance for MSO validity comparisons.
    public var clockSkew: TimeInterval = 60
    /// Largest accepted request body in bytes.
    public var bodyLimit = 1 << 20
    /// Longest wait for a request's whole body once its headers arrived; then 408.
    public var bodyTimeout: TimeInterval = 10
    /// A connection that sends nothing for this long is closed (slow headers, idle keep-alive).
    public var idleTimeout: TimeInterval = 30
    /// Most simultaneous connections from one client IP address; further ones are closed at once.
    public var maxConnectionsPerIP = 256
    public var store: StoreLocation = .default
    public var profile: CertificateProfile = .default
    /// Longest wait for one request-store operation; then 503 (or, at start, a refusal to start).
    public var storeTimeout: TimeInterval = 5
    /// How often expired requests are deleted.
    public var purgeInterval: TimeInterval = 60
    public var logLevel: Logger.Level = .info
    /// Annex C reader authentication (optional; Apple Wallet requires signed requests): the PEM private key and the
    /// PEM certificate file(s), leaf first. With both set, every annex-c DeviceRequest carries readerAuthAll.
    public var readerKeyPath: String?
    public var readerCertificatePaths: [String] = []
    /// Annex C requests list the trust store's issuer identifiers per docType (ItemsRequest `requestInfo`), so the
    /// wallet offers only documents the verifier can anchor. Off by default (apple-app requests always return them).
    public var requestIssuerIdentifiers = false
    /// OpenID4VP requests ask for an encrypted response (`dc_api.jwt`, the default) or a plain one (`dc_api`).
    public var openID4VPResponseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT
    /// What an undetermined revocation status does: off, soft (a warning check; the default) or hard (rejected with
    /// `revocation.unknown`). A known revoked or suspended status always rejects.
    public var revocation: RevocationPolicy = .soft
    /// CRL files (PEM or DER) for document signers, and status list / identifier list token files (matched by `sub`).
    public var crlPaths: [String] = []
    public var statusListPaths: [String] = []
    /// Fetch the status list or identifier list an MSO's `status` names (http/https, cached per its `exp`/`ttl`,
    /// refreshed in the background). On by default; files given in `statusLists` win.
    public var revocationFetch = true
    /// Also fetch CRLs from the certificates' CRL distribution points (opt-in).
    public var crlDistributionPoints = false
    /// Time for one list fetch, redirects included.
    public var revocationFetchTimeout: TimeInterval = 5
    /// Serves the inspector page at `/inspect` and its endpoint `POST /v1/inspect`, which verifies a pasted response
    /// without creating or consuming a request and returns its decoded CBOR. A development tool: it needs test mode.
    public var inspector = false
    /// Test mode only: verify as of this instant (e.g. inside a fixed sample's validity) instead of now.
    public var verificationTime: Date?

    public init() {}

    /// Apple's sample merchant values and test key, for tests and the load tool (test mode, in-memory store).
    public static func testing(keyPaths: [String], trustStorePaths: [String], merchantID: String, teamID: String,
                               verificationTime: Date? = nil, store: StoreLocation = .memory) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.testMode = true
        configuration.revocationFetch = false
        configuration.decryptionKeyPaths = keyPaths
        configuration.trustStorePaths = trustStorePaths
        configuration.merchantID = merchantID
        configuration.teamID = teamID
        configuration.verificationTime = verificationTime
        configuration.store = store
        configuration.purgeInterval = 3600
        return configuration
    }

    /// Problems that need no file access; `ServerRuntime` adds the key and trust store ones.
    public var problems: [String] {
        var problems: [String] = []
        if host.isEmpty { problems.append("host is empty") }
        if !(0 ... 65535).contains(port) { problems.append("port \(port) is outside 0…65535") }
        if merchantID.isEmpty { problems.append("merchantID is missing (VERIFY_SERVER_MERCHANT_ID)") }
        if teamID.isEmpty { problems.append("teamID is missing (VERIFY_SERVER_TEAM_ID)") }
        if decryptionKeyPaths.isEmpty { problems.append("no decryption key configured (decryptionKeys / VERIFY_SERVER_DECRYPTION_KEYS)") }
        if !(requestTTL > 0) { problems.append("requestTTL must be a positive number of seconds") }
        if !(clockSkew >= 0) { problems.append("clockSkew must be zero or more seconds") }
        if !(revocationFetchTimeout > 0 && revocationFetchTimeout <= 60) {
            problems.append("revocationFetchTimeout must be more than 0 and at most 60 seconds")
        }
        if bodyLimit < 1024 { problems.append("bodyLimit must be at least 1024 bytes") }
        if !(bodyTimeout > 0) { problems.append("bodyTimeout must be a positive number of seconds") }
        if !(idleTimeout > 0) { problems.append("idleTimeout must be a positive number of seconds") }
        if !(trustWatchInterval >= 0) { problems.append("trustWatchInterval must be zero or more seconds") }
        if maxConnectionsPerIP < 1 { problems.append("maxConnectionsPerIP must be at least 1") }
        if !(storeTimeout > 0) { problems.append("storeTimeout must be a positive number of seconds") }
        if !(purgeInterval > 0) { problems.append("purgeInterval must be a positive number of seconds") }
        if store == .memory && !testMode { problems.append("the memory: store is for tests only; it needs test mode") }
        if (readerKeyPath == nil) != readerCertificatePaths.isEmpty {
            problems.append("readerKey and readerCertificates go together: set both or neither")
        }
        if verificationTime != nil && !testMode { problems.append("verificationTime pins the clock for tests; it needs test mode") }
        if inspector && !testMode {
            problems.append("inspector shows the decoded content of responses that failed their checks; it needs test mode")
        }
        return problems
    }
}

/// A VICAL file and the root (PEM) pinned to verify it.
public struct VICALSource: Sendable, Equatable {
    public var file: String
    public var root: String

    public init(file: String, root: String) {
        self.file = file
        self.root = root
    }
}

/// The reasons the server refuses to start, one message per problem.
public struct ConfigurationProblems: Error, CustomStringConvertible, Sendable {
    public let problems: [String]

    public init(_ problems: [String]) { self.problems = problems }

    public var description: String { problems.map { "configuration: \($0)" }.joined(separator: "\n") }
}
