import CryptoCore
import Foundation
import MdocModel
import MdocTrust
import RevocationFetch
import Logging
import Mdoc
import Verifier

/// Everything `verify-server` is configured with.
///
/// Built by `ConfigurationLoader` from a JSON or YAML file and `VERIFY_SERVER_*` environment variables; tests build
/// it directly. A config-file key's environment variable is `VERIFY_SERVER_` plus the key in upper snake case;
/// docs/verify-server.example.yaml is an annotated example.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; "127.0.0.1" by default.
    public var host = "127.0.0.1"
    /// The TCP port to listen on; 8080 by default, 0 picks a free port (see `VerifyServerApp.port()`).
    public var port = 8080
    /// Where the operator's routes are served: `/metrics`, the detailed `/readyz` and `/v1/operator/…`.
    ///
    /// `private` (the default): on a listener of their own at `operatorHost`:`operatorPort`, while the public listener
    /// answers `/readyz` with its status only and `/metrics` and the operator routes with 404. `shared`: all on the public
    /// listener, where a proxy in front must keep them from the internet.
    public var operatorListener: OperatorListener = .private
    /// The address of the operator listener; "127.0.0.1" by default (a scraper on another host needs another address).
    public var operatorHost = "127.0.0.1"
    /// The TCP port of the operator listener; 9000 by default, 0 picks a free port (see `VerifyServerApp.operatorPort()`).
    public var operatorPort = 9000
    /// The Apple merchant ID, bound into the Apple session transcript; required.
    public var merchantID = ""
    /// The Apple developer team ID, bound into the Apple session transcript; required.
    public var teamID = ""
    /// PEM files of the P-256 decryption keys; a response's pkRHash picks one.
    public var decryptionKeyPaths: [String] = []
    /// Trust anchor files or folders (with their manifest.json scopes); empty uses the production bundle embedded
    /// in the binary.
    public var trustStorePaths: [String] = []
    /// VICALs whose IACAs are added to the trust store, each with the VICAL root pinned for it (PEM file).
    ///
    /// Verified at start; the server refuses to start on a bad signature or an untrusted signer. A source with a `url`
    /// is downloaded at start and every `refresh` seconds (`TrustListRefresher`).
    public var vicals: [VICALSource] = []
    /// What a VICAL past its nextUpdate does: `warn` (its IACAs stay trusted; `/readyz` and the reports say stale) or
    /// `refuse` (its IACAs are not trusted until a current list arrives).
    public var vicalStalePolicy: VICALStalePolicy = .warn
    /// Where the last good copy of each downloaded VICAL and LoTE is kept (relative paths from the working directory),
    /// so a restart serves it when the download fails.
    public var vicalCacheDirectory = "verify-server-vicals"
    /// EU trusted lists (ETSI TS 119 602 LoTEs) whose active services' certificates are added to the trust store, each
    /// with its pinned signer root and the docTypes its mapped service types may anchor (`LoTESource`). A source with a
    /// `url` is downloaded at start and every `refresh` seconds, as a VICAL's.
    public var lotes: [LoTESource] = []
    /// How often, in seconds, the trust files are checked for changes (then reloaded, as on SIGHUP); 0 turns the check
    /// off.
    public var trustWatchInterval: TimeInterval = 60
    /// Whether to accept Apple's published test key.
    ///
    /// Every report and `/readyz` then say `test`. Off by default; the in-memory store, `verificationTime` and the
    /// inspector need it.
    public var testMode = false
    /// How long a created request can be verified, in seconds (default 300).
    public var requestTTL: TimeInterval = 300
    /// The tolerance for MSO validity comparisons, in seconds (default 60).
    public var clockSkew: TimeInterval = 60
    /// The largest accepted request body in bytes (default 1 MiB, at least 1024); a larger one gets 413.
    public var bodyLimit = 1 << 20
    /// The longest wait, in seconds, for a request's whole body once its headers arrived (default 10); then 408.
    public var bodyTimeout: TimeInterval = 10
    /// How long, in seconds, a connection may send nothing before it is closed (default 30; slow headers, idle
    /// keep-alive).
    public var idleTimeout: TimeInterval = 30
    /// The most simultaneous connections from one TCP peer address, an IPv6 peer counted by its /64 (default 256);
    /// further ones are closed at once.
    ///
    /// It counts peers, not the clients `trustedProxies` name: behind a load balancer, the balancer's own connections.
    public var maxConnectionsPerIP = 256
    /// The load balancers and reverse proxies whose `trustedProxyHeader` names the client: addresses or CIDR networks
    /// (IPv4 or IPv6). Empty (the default): the TCP peer is the client and the header is ignored.
    public var trustedProxies: [String] = []
    /// The header a trusted proxy names the client in: `x-forwarded-for` (the default) or RFC 7239 `forwarded`.
    public var trustedProxyHeader: ProxyHeader = .xForwardedFor
    /// The average number of API requests (routes under /v1/, the operator's excepted) a second allowed per client
    /// address (default 50; 0 turns the limit off); beyond it 429 with `Retry-After`.
    public var rateLimit: Double = 50
    /// How many API requests one client address may send at once before `rateLimit` applies (default 100).
    public var rateLimitBurst = 100
    /// The average number of API requests a second allowed per API key, per instance (default 200; 0 turns the limit
    /// off): a request that carries a configured key counts here and not against its address's `rateLimit`.
    public var apiKeyRateLimit: Double = 200
    /// How many API requests one API key may send at once before `apiKeyRateLimit` applies (default 1,000).
    public var apiKeyRateLimitBurst = 1_000
    /// Where pending requests are kept: `StoreLocation.default` (an SQLite file) unless configured.
    public var store: StoreLocation = .default
    /// The PostgreSQL password when the store URL holds none: read from `storePasswordFile`, or the
    /// `VERIFY_SERVER_STORE_PASSWORD` environment variable. Never logged.
    public var storePassword: StorePassword?
    /// The key that encrypts each stored request's state (the format's secrets, e.g. a private key) with AES-256-GCM,
    /// read from `requestStateKeyFile`; nil (the default) stores the state unencrypted.
    ///
    /// Either way a request's state is emptied when the request is consumed or expires.
    public var requestStateKey: RequestStateKey?
    /// The most requests created by this instance that are neither consumed nor expired (default 10,000); beyond it
    /// `POST /v1/requests` answers 429.
    public var maxOutstandingRequests = 10_000
    /// The most such requests per client address (default 100); beyond it that client gets 429. Transactions an API
    /// key creates count against `maxOutstandingRequestsPerKey` instead.
    public var maxOutstandingRequestsPerClient = 100
    /// The most transactions one API key has outstanding (created, neither consumed nor expired), counted in the store
    /// across every instance (default 10,000); beyond it `POST /v1/transactions` answers 429 for that key.
    public var maxOutstandingRequestsPerKey = 10_000
    /// How strictly the ISO/IEC 18013-5 Annex B certificate profile is enforced.
    public var profile: CertificateProfile = .default
    /// The longest wait, in seconds, for one request-store operation (default 5); then 503 (or, at start, a refusal to
    /// start).
    public var storeTimeout: TimeInterval = 5
    /// How often, in seconds, expired requests are deleted (default 60).
    public var purgeInterval: TimeInterval = 60
    /// How often, in seconds, the C allocator's free pages are handed back to the kernel (default 10; 0 never).
    public var memoryTrimInterval: TimeInterval = 10
    /// The minimum level of log messages; `info` by default.
    public var logLevel: Logger.Level = .info
    /// How `verify-server` writes its log to standard error: `text` lines (the default) or one JSON object per line.
    public var logFormat: LogFormat = .text
    /// The PEM private key for Annex C reader authentication; set together with `readerCertificatePaths`, or neither.
    ///
    /// Reader authentication is optional, but Apple Wallet requires signed requests. With both set, every annex-c
    /// DeviceRequest carries readerAuthAll.
    public var readerKeyPath: String?
    /// The PEM certificate file(s) of the reader authentication chain, leaf first; set together with `readerKeyPath`.
    public var readerCertificatePaths: [String] = []
    /// Whether Annex C requests list the trust store's issuer identifiers per docType (ItemsRequest `requestInfo`).
    ///
    /// The wallet then offers only documents the verifier can anchor. Off by default (apple-app requests always return
    /// them).
    public var requestIssuerIdentifiers = false
    /// The response mode OpenID4VP requests ask for: encrypted (`dc_api.jwt`, the default) or plain (`dc_api`).
    public var openID4VPResponseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT
    /// The profile OpenID4VP requests are made and checked under: `default`, or `haip` (signed `x509_hash` requests,
    /// `dc_api.jwt`, and HAIP 1.0's answer rules; it needs `readerKey` and `readerCertificates`).
    public var openID4VPProfile: OpenID4VPProfile = .default
    /// What an undetermined revocation status does: off, soft (a warning check; the default) or hard.
    ///
    /// Hard rejects with `revocation.unknown`. A known revoked or suspended status always rejects.
    public var revocation: RevocationPolicy = .soft
    /// CRL files (PEM or DER) for document signers.
    public var crlPaths: [String] = []
    /// Status list and identifier list token files, matched to an MSO's `status` by their `sub`.
    public var statusListPaths: [String] = []
    /// Whether to fetch the status list or identifier list an MSO's `status` names.
    ///
    /// Lists are fetched over http/https, cached per their `exp`/`ttl` and refreshed in the background. On by
    /// default; files given in `statusLists` win.
    public var revocationFetch = true
    /// Whether to also fetch CRLs from the certificates' CRL distribution points (opt-in).
    public var crlDistributionPoints = false
    /// The time allowed for one list fetch, redirects included, in seconds (more than 0, at most 60).
    public var revocationFetchTimeout: TimeInterval = 5
    /// Destinations list fetches may reach although they are not public addresses: host names or CIDR networks
    /// (lists hosted internally). Loopback, private, link-local, unique-local, multicast and unspecified addresses
    /// are refused otherwise, after name resolution and on every redirect.
    public var revocationFetchAllow: [String] = []
    /// A file holding the bearer token of the operator endpoints (`GET /v1/operator/revocation`); none: those
    /// endpoints refuse every request (401).
    public var operatorTokenFile: String?
    /// Whether to serve the inspector page at `/inspect` and its endpoint `POST /v1/inspect`.
    ///
    /// The endpoint verifies a pasted response without creating or consuming a request and returns its decoded
    /// CBOR. A development tool: it needs test mode.
    public var inspector = false
    /// Test mode only: verify as of this instant (e.g. inside a fixed sample's validity) instead of now.
    public var verificationTime: Date?
    /// The API keys of the backend API (`POST /v1/transactions`, `GET /v1/transactions/{requestId}`), stored as
    /// SHA-256 hashes, each scoped to its origins and formats; none: that API refuses every request (401).
    ///
    /// Their origins are also the only ones the wallet-facing endpoint answers cross-origin (CORS).
    public var apiKeys: [APIKey] = []
    /// Test mode only: the origin the demo page (`GET /demo`) creates its transactions for, the server's own as the
    /// browser sees it (e.g. `http://127.0.0.1:8080`); nil (the default): no demo routes (404).
    public var demoOrigin: String?
    /// The URL wallets reach this server at, for the `request_uri` and `response_uri` of a format answered by reference
    /// (openid4vp-redirect), e.g. `https://verify.example.com`; https, or http to a loopback host (a local test). Nil (the default): this
    /// listener in test mode (`http://host:port`), otherwise such formats are not offered.
    public var walletBaseURL: String?
    /// Where a signed event is posted when a transaction is answered (Standard Webhooks); https, or http in test mode.
    /// Nil (the default): none is sent, the backend polls.
    public var webhookURL: String?
    /// The webhook's signing secrets, read from `webhookSecretFile` (one a line, at most four); required with
    /// `webhookURL`. Every delivery is signed with each (Standard Webhooks), so a receiver can move to a new secret
    /// while the old one still verifies.
    public var webhookSecrets: [WebhookSecret] = []
    /// Whether the webhook's body carries the report (the disclosed elements); off by default: status only.
    public var webhookIncludeReport = false
    /// Destinations the webhook may reach although they are not public addresses: host names or CIDR networks. Also
    /// the only hosts a transaction's own `webhookURL` may name.
    public var webhookAllow: [String] = []
    /// A PEM file of CA certificates that https webhook receivers and list hosts (status lists, CRLs, VICALs, LoTEs) may
    /// also chain to, besides the system's store: a receiver or host on a private CA. Nil: the system's store only.
    public var outboundCAFile: String?
    /// Whether the deprecated unauthenticated routes `POST /v1/requests` and `POST /v1/verify` answer; off by default
    /// (404 `api.legacy_off`).
    public var legacyAPI: LegacyAPI = .off
    /// How long, in seconds, a graceful shutdown (SIGTERM) may take before what is still running is cancelled
    /// (default 10): requests in flight finish within it; a webhook waiting for its retry stays in the store's outbox.
    public var shutdownGrace: TimeInterval = 10

    /// Creates a configuration with every default; `merchantID`, `teamID` and `decryptionKeyPaths` must still be set.
    public init() {}

    /// A configuration for tests and the load tool: test mode, port 0, no revocation fetching, no rate limit, an
    /// in-memory store by default.
    ///
    /// Callers pass Apple's sample merchant values and test key paths.
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
        configuration.rateLimit = 0
        configuration.apiKeyRateLimit = 0
        // The tests and the load tool drive the deprecated routes; no API key is configured here.
        configuration.legacyAPI = .on
        // They read /metrics and the detailed /readyz on the one port they know.
        configuration.operatorListener = .shared
        return configuration
    }

    /// The longest timeout or interval accepted, in seconds (one day).
    static let longestTimer: TimeInterval = 86_400
    /// The highest outstanding-request cap accepted: each counted request costs about 200 bytes of memory.
    static let mostOutstandingRequests = 10_000_000

    /// The configuration problems that need no file access, for the built-in formats; `VerifierRuntime.load` adds the
    /// key and trust store ones.
    public var problems: [String] { problems(formats: .standard) }

    /// The configuration problems that need no file access, for a server that serves `formats` (the API keys' format
    /// lists are checked against it).
    public func problems(formats: FormatRegistry) -> [String] {
        var problems: [String] = []
        if host.isEmpty { problems.append("host is empty") }
        if !(0 ... 65535).contains(port) { problems.append("port \(port) is outside 0…65535") }
        problems += operatorListenerProblems
        problems += appleProblems
        if !(requestTTL > 0) { problems.append("requestTTL must be a positive number of seconds") }
        if !(clockSkew >= 0) { problems.append("clockSkew must be zero or more seconds") }
        if !(revocationFetchTimeout > 0 && revocationFetchTimeout <= 60) {
            problems.append("revocationFetchTimeout must be more than 0 and at most 60 seconds")
        }
        for entry in revocationFetchAllow where FetchDestination(entry) == nil {
            problems.append("revocationFetchAllow entry \(InputQuote.short(entry)) is neither a host name nor an address or CIDR network")
        }
        if bodyLimit < 1024 { problems.append("bodyLimit must be at least 1024 bytes") }
        if maxConnectionsPerIP < 1 { problems.append("maxConnectionsPerIP must be at least 1") }
        for entry in trustedProxies where IPNetwork(entry) == nil {
            problems.append("trustedProxies entry \(InputQuote.short(entry)) is not an IP address or CIDR network (e.g. 10.0.0.0/8, fd00::/8)")
        }
        if !(rateLimit >= 0 && rateLimit <= 1_000_000) { problems.append("rateLimit must be 0 (off) to 1000000 requests a second") }
        if !(1 ... 1_000_000).contains(rateLimitBurst) { problems.append("rateLimitBurst must be 1 to 1000000") }
        if !(apiKeyRateLimit >= 0 && apiKeyRateLimit <= 1_000_000) { problems.append("apiKeyRateLimit must be 0 (off) to 1000000 requests a second") }
        if !(1 ... 1_000_000).contains(apiKeyRateLimitBurst) { problems.append("apiKeyRateLimitBurst must be 1 to 1000000") }
        for (name, value) in [("maxOutstandingRequests", maxOutstandingRequests),
                              ("maxOutstandingRequestsPerClient", maxOutstandingRequestsPerClient),
                              ("maxOutstandingRequestsPerKey", maxOutstandingRequestsPerKey)]
            where !(1 ... Self.mostOutstandingRequests).contains(value) {
            problems.append("\(name) must be 1 to \(Self.mostOutstandingRequests)")
        }
        // Timers take these as whole milliseconds or nanoseconds in 64 bits: one day keeps every one far inside.
        let timers: [(name: String, value: TimeInterval, zero: String?)] = [
            ("bodyTimeout", bodyTimeout, nil), ("idleTimeout", idleTimeout, nil), ("storeTimeout", storeTimeout, nil),
            ("purgeInterval", purgeInterval, nil), ("trustWatchInterval", trustWatchInterval, "off"),
            ("memoryTrimInterval", memoryTrimInterval, "never"),
        ]
        for timer in timers where !((timer.zero == nil ? timer.value > 0 : timer.value >= 0) && timer.value <= Self.longestTimer) {
            let allowed = timer.zero.map { "0 (\($0)) or a positive number" } ?? "a positive number"
            problems.append("\(timer.name) must be \(allowed) of seconds, at most \(Int(Self.longestTimer))")
        }
        problems += storePasswordProblems
        if store == .memory && !testMode { problems.append("the memory: store is for tests only; it needs test mode") }
        if (readerKeyPath == nil) != readerCertificatePaths.isEmpty {
            problems.append("readerKey and readerCertificates go together: set both or neither")
        }
        if verificationTime != nil && !testMode { problems.append("verificationTime pins the clock for tests; it needs test mode") }
        problems += APIKey.problems(apiKeys, formats: formats)
        problems += webhookProblems
        problems += publishedURLProblems
        problems += trustListProblems
        problems += serviceProblems
        if inspector && !testMode {
            problems.append("inspector shows the decoded content of responses that failed their checks; it needs test mode")
        }
        return problems
    }
}

extension ServerConfiguration {
    /// An operator listener without an address, out of range, or on the public listener's port.
    var operatorListenerProblems: [String] {
        guard operatorListener == .private else { return [] }
        var problems: [String] = []
        if operatorHost.isEmpty { problems.append("operatorHost is empty") }
        if !(0 ... 65535).contains(operatorPort) {
            problems.append("operatorPort \(operatorPort) is outside 0…65535")
        } else if operatorPort != 0 && operatorPort == port {
            problems.append("operatorPort \(operatorPort) is also port: the operator listener needs a port of its own "
                + "(or operatorListener: shared to serve its routes on the public listener)")
        }
        return problems
    }

    /// The legacy routes beside API keys without the explicit choice, and a shutdown grace out of range.
    var serviceProblems: [String] {
        var problems: [String] = []
        if legacyAPI == .on && !apiKeys.isEmpty {
            problems.append("legacyAPI: on would serve POST /v1/requests and POST /v1/verify without authentication beside the "
                + "API keys (anyone could create requests for any origin and read reports): use the backend API, or set "
                + "legacyAPI: beside-api-keys to accept that")
        }
        if !(shutdownGrace > 0 && shutdownGrace <= 600) { problems.append("shutdownGrace must be more than 0 and at most 600 seconds") }
        if let outboundCAFile {
            let pem = FileManager.default.contents(atPath: outboundCAFile).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if ((try? Certificate.certificates(fromPEM: pem)) ?? []).isEmpty { problems.append("outboundCAFile \(InputQuote.short(outboundCAFile)) is not a readable PEM file of CA certificates") }
        }
        return problems
    }
}

/// Whether the deprecated routes `POST /v1/requests` and `POST /v1/verify`, which take no credentials and let the caller
/// choose the origin, answer.
public enum LegacyAPI: String, CaseIterable, Sendable {
    /// They answer 404 `api.legacy_off` (the default).
    case off
    /// They answer, unless `apiKeys` are configured (a configuration problem then).
    case on
    /// They answer even beside `apiKeys`: the operator accepts an unauthenticated API next to the keyed one.
    case besideAPIKeys = "beside-api-keys"

    /// Whether the routes answer.
    public var serves: Bool { self != .off }
}

/// Where `verify-server` serves the operator's routes (`ServerConfiguration.operatorListener`).
public enum OperatorListener: String, CaseIterable, Sendable {
    /// On a listener of their own (`operatorHost`:`operatorPort`); the public one keeps a bare readiness answer.
    case `private`
    /// On the public listener, beside the API.
    case shared
}

/// How the `verify-server` executable writes its log lines to standard error.
public enum LogFormat: String, CaseIterable, Sendable {
    /// swift-log's text lines: time, level, label, metadata and message.
    case text
    /// One JSON object per line (`JSONLogHandler`): `time`, `level`, `label`, `message` and `metadata`.
    case json
}

/// A VICAL (a file, or a URL the server downloads) and the root (PEM) pinned to verify it.
public struct VICALSource: Sendable, Equatable {
    /// The path of the VICAL file; empty for a source with a `url`.
    public var file: String
    /// The http(s) URL the VICAL is downloaded from (through the list fetcher's destination policy and size limit);
    /// nil for a file.
    public var url: String?
    /// Seconds between downloads of a `url` source (default 3600, 60 to 86400; each wait varies by up to a tenth).
    public var refresh: TimeInterval = 3600
    /// The path of the PEM file holding the root certificate(s) the VICAL's signer must chain to.
    public var root: String
    /// Accept a list older than the highest issue this server has accepted from its provider (or one without an issue
    /// ID): the operator rolls back on purpose. Off by default (`vical.rollback`).
    public var allowRollback = false

    /// Creates a source from the VICAL's path and its pinned root's path.
    public init(file: String, root: String) {
        self.file = file
        self.root = root
    }

    /// Creates a source the server downloads from `url` every `refresh` seconds.
    public init(url: String, root: String, refresh: TimeInterval = 3600) {
        self.file = ""
        self.url = url
        self.root = root
        self.refresh = refresh
    }
}

/// The reasons the server refuses to start, one message per problem.
public struct ConfigurationProblems: Error, CustomStringConvertible, Sendable {
    /// One message per problem.
    public let problems: [String]

    /// Creates an error from its problem messages.
    public init(_ problems: [String]) { self.problems = problems }

    /// Every problem on its own line, each prefixed with "configuration: ".
    public var description: String { problems.map { "configuration: \($0)" }.joined(separator: "\n") }
}

extension ServerConfiguration {
    /// The base of the wallet-facing URLs of formats answered by reference, without a trailing slash: `walletBaseURL`,
    /// or this listener in test mode (127.0.0.1 for a wildcard host; `boundPort`, the port it listens on, when known,
    /// as with port 0); nil otherwise.
    func walletURL(boundPort: Int? = nil) -> String? {
        if let walletBaseURL { return walletBaseURL.hasSuffix("/") ? String(walletBaseURL.dropLast()) : walletBaseURL }
        guard testMode else { return nil }
        let shown = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(boundPort ?? port)"
    }

    /// Apple in-app (`apple-app`) is configured by merchantID, teamID and decryptionKeys together; none of them: the
    /// format is not offered. One or two of them is a problem naming the others.
    var appleProblems: [String] {
        let given = [!merchantID.isEmpty, !teamID.isEmpty, !decryptionKeyPaths.isEmpty]
        guard given.contains(true) else { return [] }
        let why = " (apple-app needs merchantID, teamID and decryptionKeys together; set none of them to leave it out)"
        var problems: [String] = []
        if merchantID.isEmpty { problems.append("merchantID is missing (VERIFY_SERVER_MERCHANT_ID)" + why) }
        if teamID.isEmpty { problems.append("teamID is missing (VERIFY_SERVER_TEAM_ID)" + why) }
        if decryptionKeyPaths.isEmpty { problems.append("no decryption key configured (decryptionKeys / VERIFY_SERVER_DECRYPTION_KEYS)" + why) }
        return problems
    }

    /// What is wrong with the URLs the server publishes: the wallet base URL and the demo's origin.
    var publishedURLProblems: [String] {
        var problems: [String] = []
        if let walletBaseURL, !Self.isWalletBaseURL(walletBaseURL) {
            problems.append("walletBaseURL must be an absolute https URL (http only to a loopback host) without query or fragment, "
                            + "such as https://verify.example.com")
        }
        if let demoOrigin {
            if !testMode { problems.append("demoOrigin serves a demo page that creates transactions without a key; it needs test mode") }
            if !APIKey.isSerializedOrigin(demoOrigin) { problems.append("demoOrigin must be a serialized web origin such as http://127.0.0.1:8080") }
        }
        return problems
    }

    /// The rule of the URLs published to wallets: https, or http to this machine (a local test).
    static func isWalletBaseURL(_ text: String) -> Bool {
        guard text.utf8.count <= 1_024, let url = URLComponents(string: text), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else { return false }
        return url.scheme == "https" || (url.scheme == "http" && LoopbackHost.contains(host))
    }
}
