import Foundation
import Logging
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// The configuration keys: the name in a config file, the environment variable that overrides it, and how the
/// text value is applied. Every value arrives as text (environment) or is turned into text (file scalars);
/// lists are comma-separated in the environment.
struct ConfigurationKey: Sendable {
    let name: String
    /// One line for the configuration reference (docs/configuration.md).
    let summary: String
    /// The key's value in a configuration (the default's, for the reference).
    let defaultValue: @Sendable (ServerConfiguration) -> Any?
    let apply: @Sendable (inout ServerConfiguration, ConfigurationValue) throws -> Void

    init(name: String, _ summary: String = "", default defaultValue: @escaping @Sendable (ServerConfiguration) -> Any? = { _ in nil },
         apply: @escaping @Sendable (inout ServerConfiguration, ConfigurationValue) throws -> Void) {
        self.name = name
        self.summary = summary
        self.defaultValue = defaultValue
        self.apply = apply
    }

    var environmentName: String { Self.environmentName(of: name) }

    /// The variable overriding the key `name`: `VERIFY_SERVER_` and the name in upper snake case.
    static func environmentName(of name: String) -> String {
        var out = "VERIFY_SERVER_"
        var previous: Character?
        for character in name {
            if character.isUppercase, previous?.isLowercase == true { out += "_" }
            out += character.uppercased()
            previous = character
        }
        return out
    }

    static let all: [ConfigurationKey] = [
        .init(name: "host", "The address to listen on.", default: { $0.host }) { $0.host = try $1.text() },
        .init(name: "port", "The TCP port to listen on; 0 picks a free port.", default: { $0.port }) { $0.port = try $1.integer() },
        .init(name: "operatorListener", "Where /metrics, the detailed /readyz and /v1/operator/* answer: `private` on a listener of their own (operatorHost:operatorPort; the public /readyz then says only its status, the others 404) or `shared` on the public listener (keep them from the internet at the proxy).", default: { $0.operatorListener }) { $0.operatorListener = try $1.choice(OperatorListener.self) },
        .init(name: "operatorHost", "The address of the private operator listener; a scraper on another host needs another than loopback.", default: { $0.operatorHost }) { $0.operatorHost = try $1.text() },
        .init(name: "operatorPort", "The TCP port of the private operator listener, not port; 0 picks a free port (the log names it).", default: { $0.operatorPort }) { $0.operatorPort = try $1.integer() },
        .init(name: "merchantID", "The Apple merchant ID bound into the Apple session transcript. apple-app is offered with merchantID, teamID and decryptionKeys together; none of the three leaves it out.", default: { $0.merchantID }) { $0.merchantID = try $1.text() },
        .init(name: "teamID", "The Apple developer team ID bound into the Apple session transcript; set with merchantID.", default: { $0.teamID }) { $0.teamID = try $1.text() },
        .init(name: "decryptionKeys", "PEM files of the Apple P-256 decryption keys (a response's pkRHash picks one); set with merchantID.", default: { $0.decryptionKeyPaths }) { $0.decryptionKeyPaths = try $1.list() },
        .init(name: "trustStore", "Trust anchor files or folders (with their manifest.json scopes); none: the production bundle embedded in the binary.", default: { $0.trustStorePaths }) { $0.trustStorePaths = try $1.list() },
        .init(name: "trustWatchInterval", "Seconds between checks of the trust files for changes (then reloaded, as on SIGHUP); 0 turns the check off.", default: { $0.trustWatchInterval }) { $0.trustWatchInterval = try $1.seconds() },
        .init(name: "vicals", "VICALs whose IACAs join the trust store: `{file, root}` or `{url, root, refresh}` objects (root: the pinned PEM); in the environment `FILE=ROOT` or `URL=ROOT` pairs, comma-separated (a URL splits at its last `=`).", default: { $0.vicals }) { $0.vicals = try VICALSource.list(from: $1) },
        .init(name: "vicalStalePolicy", "What a VICAL or LoTE past its nextUpdate does: `warn` (still trusted, reported stale) or `refuse` (its anchors stop anchoring at the nextUpdate, checked at every verification: `vical.stale`).", default: { $0.vicalStalePolicy }) { $0.vicalStalePolicy = try $1.choice(VICALStalePolicy.self) },
        .init(name: "vicalCacheDirectory", "Where the last good copy of each downloaded VICAL and LoTE is kept, so a restart serves it when the download fails.", default: { $0.vicalCacheDirectory }) { $0.vicalCacheDirectory = try $1.text() },
        .init(name: "lotes", "EU trusted lists (ETSI TS 119 602 LoTEs) whose active services' certificates join the trust store: `{file, root, serviceTypes, docTypes, allowRollback}` or `{url, root, refresh, …}` objects (root: the pinned signer PEM; the services of those service or list types anchor those docTypes; a url is downloaded and refreshed as a VICAL's); in the environment `FILE=ROOT=TYPE=DOCTYPE` or `URL=ROOT=TYPE=DOCTYPE`, comma-separated. Stale lists follow vicalStalePolicy.", default: { $0.lotes }) { $0.lotes = try LoTESource.list(from: $1) },
        .init(name: "testMode", "Accept Apple's published test key, and mock data from a developer-profile device with a warning; every report and /readyz then say `test`. Never in production.", default: { $0.testMode }) { $0.testMode = try $1.bool() },
        .init(name: "inspector", "Serve the inspector page (/inspect) and POST /v1/inspect; needs test mode.", default: { $0.inspector }) { $0.inspector = try $1.bool() },
        .init(name: "requestTTL", "Seconds a created request can be verified.", default: { $0.requestTTL }) { $0.requestTTL = try $1.seconds() },
        .init(name: "clockSkew", "Tolerance in seconds for MSO validity comparisons.", default: { $0.clockSkew }) { $0.clockSkew = try $1.seconds() },
        .init(name: "bodyLimit", "The largest accepted request body in bytes (at least 1024); a larger one gets 413.", default: { $0.bodyLimit }) { $0.bodyLimit = try $1.integer() },
        .init(name: "bodyTimeout", "Seconds allowed for a request's whole body once its headers arrived; then 408.", default: { $0.bodyTimeout }) { $0.bodyTimeout = try $1.seconds() },
        .init(name: "idleTimeout", "Seconds a connection may send nothing before it is closed.", default: { $0.idleTimeout }) { $0.idleTimeout = try $1.seconds() },
        .init(name: "maxConnectionsPerIP", "The most simultaneous connections from one TCP peer address (an IPv6 peer counts by its /64); it counts peers (behind a load balancer, the balancer), not the clients trustedProxies name.", default: { $0.maxConnectionsPerIP }) { $0.maxConnectionsPerIP = try $1.integer() },
        .init(name: "trustedProxies", "Load balancers and proxies (addresses or CIDR networks, IPv4 or IPv6) whose trustedProxyHeader names the client; read right to left, the first untrusted address is the client.", default: { $0.trustedProxies }) { $0.trustedProxies = try $1.list() },
        .init(name: "trustedProxyHeader", "The header trusted proxies name the client in: `x-forwarded-for` or `forwarded` (RFC 7239).", default: { $0.trustedProxyHeader }) { $0.trustedProxyHeader = try $1.choice(ProxyHeader.self) },
        .init(name: "rateLimit", "API requests (routes under /v1/, the operator's excepted) a second allowed per client address on average; 0 turns the limit off. Beyond it: 429 with Retry-After.", default: { $0.rateLimit }) { $0.rateLimit = try $1.number() },
        .init(name: "rateLimitBurst", "API requests one client address may send at once before rateLimit applies.", default: { $0.rateLimitBurst }) { $0.rateLimitBurst = try $1.integer() },
        .init(name: "apiKeyRateLimit", "API requests a second allowed per API key on average, per instance; a request that carries a configured key counts here, not against its address's rateLimit. 0 turns the limit off. Beyond it: 429 with Retry-After.", default: { $0.apiKeyRateLimit }) { $0.apiKeyRateLimit = try $1.number() },
        .init(name: "apiKeyRateLimitBurst", "API requests one API key may send at once before apiKeyRateLimit applies.", default: { $0.apiKeyRateLimitBurst }) { $0.apiKeyRateLimitBurst = try $1.integer() },
        .init(name: "storeURL", "Where requests are kept: `sqlite:PATH`, `postgres://user@host:port/db?sslmode=…&sslrootcert=…` (sslmode disable, prefer, require, verify-ca, verify-full) or `memory:` (tests).", default: { $0.store }) { configuration, value in
            do {
                configuration.store = try StoreLocation(url: try value.text())
            } catch let error as RequestStoreError {
                throw ConfigurationValueError(error.message)
            }
        },
        .init(name: "storePasswordFile", "A file holding the PostgreSQL password (instead of the URL); never logged.") { configuration, value in
            let path = try value.text()
            guard !path.isEmpty else { return configuration.storePassword = nil }
            configuration.storePassword = try StorePassword(file: path)
        },
        .init(name: "storePassword", "The PostgreSQL password, from the environment only (instead of the URL); never logged.") { $0.storePassword = try $1.optionalText().map { StorePassword($0) } },
        .init(name: "requestStateKeyFile", "A file with the 32-byte key that encrypts each stored request's state (AES-256-GCM); none: stored unencrypted.") { configuration, value in
            let path = try value.text()
            guard !path.isEmpty else { return configuration.requestStateKey = nil }
            do {
                configuration.requestStateKey = try RequestStateKey(contentsOfFile: path)
            } catch let error as RequestStoreError {
                throw ConfigurationValueError("is not usable: \(error.message)")
            }
        },
        .init(name: "maxOutstandingRequests", "The most requests created by this instance and neither consumed nor expired; beyond it 429.", default: { $0.maxOutstandingRequests }) { $0.maxOutstandingRequests = try $1.integer() },
        .init(name: "maxOutstandingRequestsPerClient", "The most such requests per client address (an IPv6 client counts by its /64); beyond it 429. An API key's transactions count against maxOutstandingRequestsPerKey instead.", default: { $0.maxOutstandingRequestsPerClient }) { $0.maxOutstandingRequestsPerClient = try $1.integer() },
        .init(name: "maxOutstandingRequestsPerKey", "The most transactions one API key has outstanding (created, neither consumed nor expired), counted in the store across every instance; beyond it POST /v1/transactions answers 429 for that key.", default: { $0.maxOutstandingRequestsPerKey }) { $0.maxOutstandingRequestsPerKey = try $1.integer() },
        .init(name: "profile", "How strictly the ISO/IEC 18013-5 Annex B certificate profile is enforced.", default: { $0.profile }) { $0.profile = try $1.choice(CertificateProfile.self) },
        .init(name: "purgeInterval", "Seconds between deletions of expired requests.", default: { $0.purgeInterval }) { $0.purgeInterval = try $1.seconds() },
        .init(name: "memoryTrimInterval", "Seconds between hand-backs of the C allocator's free pages to the kernel; 0 never.", default: { $0.memoryTrimInterval }) { $0.memoryTrimInterval = try $1.seconds() },
        .init(name: "storeTimeout", "The longest wait in seconds for one request-store operation; then 503 (at start: a refusal to start).", default: { $0.storeTimeout }) { $0.storeTimeout = try $1.seconds() },
        .init(name: "logLevel", "The minimum level of log messages.", default: { $0.logLevel }) { $0.logLevel = try $1.choice(Logger.Level.self) },
        .init(name: "logFormat", "How the log is written to standard error: `text` lines or `json` (one object per line).", default: { $0.logFormat }) { $0.logFormat = try $1.choice(LogFormat.self) },
        .init(name: "readerKey", "The PEM private key that signs requests (Annex C ReaderAuth, OpenID4VP request objects; openid4vp-redirect is offered only with it); set with readerCertificates, or neither.", default: { $0.readerKeyPath }) { $0.readerKeyPath = try $1.optionalText() },
        .init(name: "readerCertificates", "The PEM certificate file(s) of the reader authentication chain, leaf first; set with readerKey.", default: { $0.readerCertificatePaths }) { $0.readerCertificatePaths = try $1.list() },
        .init(name: "requestIssuerIdentifiers", "Annex C requests list the trust store's issuer identifiers per docType, so the wallet offers only documents the verifier can anchor.", default: { $0.requestIssuerIdentifiers }) { $0.requestIssuerIdentifiers = try $1.bool() },
        .init(name: "openid4vpResponseMode", "The response mode OpenID4VP requests ask for: `dc_api.jwt` (encrypted) or `dc_api`.", default: { $0.openID4VPResponseMode }) { $0.openID4VPResponseMode = try $1.choice(OpenID4VPSession.ResponseMode.self) },
        .init(name: "openid4vpProfile", "The profile OpenID4VP requests are made and checked under: `default`, or `haip` (HAIP 1.0: signed x509_hash requests, dc_api.jwt; needs readerKey and readerCertificates).", default: { $0.openID4VPProfile }) { $0.openID4VPProfile = try $1.choice(OpenID4VPProfile.self) },
        .init(name: "revocation", "What an undetermined revocation status does: `off`, `soft` (a warning) or `hard` (rejects with revocation.unknown).", default: { $0.revocation }) { $0.revocation = try $1.choice(RevocationPolicy.self) },
        .init(name: "crls", "CRL files (PEM or DER) for document signers.", default: { $0.crlPaths }) { $0.crlPaths = try $1.list() },
        .init(name: "statusLists", "Status list and identifier list token files, matched to an MSO's status by their `sub`.", default: { $0.statusListPaths }) { $0.statusListPaths = try $1.list() },
        .init(name: "revocationFetch", "Fetch the status lists MSOs name over http(s), cached and refreshed in the background.", default: { $0.revocationFetch }) { $0.revocationFetch = try $1.bool() },
        .init(name: "crlDistributionPoints", "Also fetch CRLs from the certificates' CRL distribution points.", default: { $0.crlDistributionPoints }) { $0.crlDistributionPoints = try $1.bool() },
        .init(name: "revocationFetchTimeout", "Seconds allowed for one list fetch, redirects included (more than 0, at most 60).", default: { $0.revocationFetchTimeout }) { $0.revocationFetchTimeout = try $1.seconds() },
        .init(name: "revocationFetchAllow", "Non-public destinations list fetches may reach: host names or CIDR networks.", default: { $0.revocationFetchAllow }) { $0.revocationFetchAllow = try $1.list() },
        .init(name: "operatorTokenFile", "A file holding the bearer token of the operator endpoints; none: they refuse every request (401).", default: { $0.operatorTokenFile }) { $0.operatorTokenFile = try $1.optionalText() },
        .init(name: "apiKeys", "The backend API's keys, as `{id, sha256, origins, formats}` objects (the key's SHA-256; `verify-server --new-api-key ID` makes one); none: that API answers 401. Re-read on SIGHUP with the webhook secrets; a configuration with a problem keeps the ones in use.", default: { $0.apiKeys }) { $0.apiKeys = try APIKey.parse($1) },
        .init(name: "demoOrigin", "Test mode only: the origin the demo page (/demo) creates its transactions for; none: no demo routes.", default: { $0.demoOrigin }) { $0.demoOrigin = try $1.optionalText() },
        .init(name: "walletBaseURL", "The URL wallets reach this server at, for the request_uri and response_uri of openid4vp-redirect (e.g. https://verify.example.com); https (http only to a loopback host, for a local test). None: this listener in test mode, otherwise that format is not offered.", default: { $0.walletBaseURL }) { $0.walletBaseURL = try $1.optionalText() },
        .init(name: "webhookURL", "Where a signed event (Standard Webhooks) is posted when a transaction is answered; https (http in test mode). None: the backend polls.", default: { $0.webhookURL }) { $0.webhookURL = try $1.optionalText() },
        .init(name: "webhookSecretFile", "A file holding the webhook's signing secrets, one a line (at most four; each whsec_ and the base64 of 24 to 64 random bytes): every delivery is signed with each, so a secret can be rotated with an overlap. Re-read on SIGHUP.") { configuration, value in
            let path = try value.text()
            guard !path.isEmpty else { return configuration.webhookSecrets = [] }
            do {
                configuration.webhookSecrets = try WebhookSecret.all(contentsOfFile: path)
            } catch let error as ConfigurationProblems {
                throw ConfigurationValueError(error.problems.joined(separator: "; "))
            }
        },
        .init(name: "webhookIncludeReport", "Whether the webhook's body carries the report (the disclosed elements); otherwise the status only.", default: { $0.webhookIncludeReport }) { $0.webhookIncludeReport = try $1.bool() },
        .init(name: "webhookAllow", "Non-public destinations the webhook may reach, and the only hosts a transaction's own webhookURL may name: host names or CIDR networks.", default: { $0.webhookAllow }) { $0.webhookAllow = try $1.list() },
        .init(name: "outboundCAFile", "A PEM file of CA certificates https webhook receivers and list hosts (status lists, CRLs, VICALs, LoTEs) may also chain to, besides the system's store (a private CA).", default: { $0.outboundCAFile }) { $0.outboundCAFile = try $1.optionalText() },
        .init(name: "legacyAPI", "The deprecated unauthenticated routes POST /v1/requests and POST /v1/verify: `off` (404 api.legacy_off), `on` (refused beside apiKeys) or `beside-api-keys`. A warning is logged at start while they answer.", default: { $0.legacyAPI }) { $0.legacyAPI = try $1.choice(LegacyAPI.self) },
        .init(name: "shutdownGrace", "Seconds a graceful shutdown (SIGTERM, SIGINT) may take before what still runs is cancelled; webhook deliveries not yet made stay in the store for the next start or another instance.", default: { $0.shutdownGrace }) { $0.shutdownGrace = try $1.seconds() },
        .init(name: "verificationTime", "Test mode only: verify as of this RFC 3339 instant instead of now.", default: { $0.verificationTime }) { configuration, value in
            guard let date = RFC3339.parseDateTime(try value.text()) else {
                throw ConfigurationValueError("must be an RFC 3339 date-time such as 2022-06-01T00:00:00Z")
            }
            configuration.verificationTime = date
        },
    ]
}
