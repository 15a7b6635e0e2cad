import Foundation
import Logging
import Mdoc
import Verifier

/// The configuration keys: the name in a config file, the environment variable that overrides it, and how the
/// text value is applied. Every value arrives as text (environment) or is turned into text (file scalars);
/// lists are comma-separated in the environment.
struct ConfigurationKey: Sendable {
    let name: String
    let apply: @Sendable (inout ServerConfiguration, ConfigurationValue) throws -> Void

    var environmentName: String {
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
        .init(name: "host") { $0.host = try $1.text() },
        .init(name: "port") { $0.port = try $1.integer() },
        .init(name: "merchantID") { $0.merchantID = try $1.text() },
        .init(name: "teamID") { $0.teamID = try $1.text() },
        .init(name: "decryptionKeys") { $0.decryptionKeyPaths = try $1.list() },
        .init(name: "trustStore") { $0.trustStorePaths = try $1.list() },
        .init(name: "trustWatchInterval") { $0.trustWatchInterval = try $1.seconds() },
        .init(name: "vicals") { $0.vicals = try VICALSource.list(from: $1) },
        .init(name: "vicalStalePolicy") { $0.vicalStalePolicy = try $1.choice(VICALStalePolicy.self) },
        .init(name: "vicalCacheDirectory") { $0.vicalCacheDirectory = try $1.text() },
        .init(name: "testMode") { $0.testMode = try $1.bool() },
        .init(name: "inspector") { $0.inspector = try $1.bool() },
        .init(name: "requestTTL") { $0.requestTTL = try $1.seconds() },
        .init(name: "clockSkew") { $0.clockSkew = try $1.seconds() },
        .init(name: "bodyLimit") { $0.bodyLimit = try $1.integer() },
        .init(name: "bodyTimeout") { $0.bodyTimeout = try $1.seconds() },
        .init(name: "idleTimeout") { $0.idleTimeout = try $1.seconds() },
        .init(name: "maxConnectionsPerIP") { $0.maxConnectionsPerIP = try $1.integer() },
        .init(name: "storeURL") { configuration, value in
            do {
                configuration.store = try StoreLocation(url: try value.text())
            } catch let error as RequestStoreError {
                throw ConfigurationValueError(error.message)
            }
        },
        .init(name: "requestStateKeyFile") { configuration, value in
            let path = try value.text()
            guard !path.isEmpty else { return configuration.requestStateKey = nil }
            do {
                configuration.requestStateKey = try RequestStateKey(contentsOfFile: path)
            } catch let error as RequestStoreError {
                throw ConfigurationValueError("is not usable: \(error.message)")
            }
        },
        .init(name: "maxOutstandingRequests") { $0.maxOutstandingRequests = try $1.integer() },
        .init(name: "maxOutstandingRequestsPerClient") { $0.maxOutstandingRequestsPerClient = try $1.integer() },
        .init(name: "profile") { $0.profile = try $1.choice(CertificateProfile.self) },
        .init(name: "purgeInterval") { $0.purgeInterval = try $1.seconds() },
        .init(name: "memoryTrimInterval") { $0.memoryTrimInterval = try $1.seconds() },
        .init(name: "storeTimeout") { $0.storeTimeout = try $1.seconds() },
        .init(name: "logLevel") { $0.logLevel = try $1.choice(Logger.Level.self) },
        .init(name: "logFormat") { $0.logFormat = try $1.choice(LogFormat.self) },
        .init(name: "readerKey") { configuration, value in
            let path = try value.text()
            configuration.readerKeyPath = path.isEmpty ? nil : path
        },
        .init(name: "readerCertificates") { $0.readerCertificatePaths = try $1.list() },
        .init(name: "requestIssuerIdentifiers") { $0.requestIssuerIdentifiers = try $1.bool() },
        .init(name: "openid4vpResponseMode") { $0.openID4VPResponseMode = try $1.choice(OpenID4VPSession.ResponseMode.self) },
        .init(name: "revocation") { $0.revocation = try $1.choice(RevocationPolicy.self) },
        .init(name: "crls") { $0.crlPaths = try $1.list() },
        .init(name: "statusLists") { $0.statusListPaths = try $1.list() },
        .init(name: "revocationFetch") { $0.revocationFetch = try $1.bool() },
        .init(name: "crlDistributionPoints") { $0.crlDistributionPoints = try $1.bool() },
        .init(name: "revocationFetchTimeout") { $0.revocationFetchTimeout = try $1.seconds() },
        .init(name: "revocationFetchAllow") { $0.revocationFetchAllow = try $1.list() },
        .init(name: "operatorTokenFile") { configuration, value in
            let path = try value.text()
            configuration.operatorTokenFile = path.isEmpty ? nil : path
        },
        .init(name: "verificationTime") { configuration, value in
            guard let date = RFC3339.parseDateTime(try value.text()) else {
                throw ConfigurationValueError("must be an RFC 3339 date-time such as 2022-06-01T00:00:00Z")
            }
            configuration.verificationTime = date
        },
    ]
}
