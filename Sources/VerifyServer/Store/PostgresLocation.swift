import Foundation
import PostgresNIO

/// A PostgreSQL server from a `postgres://user[:password]@host:port/database?sslmode=…&sslrootcert=…` URL.
///
/// `postgresql://` is accepted too, and a `max_connections` query item sets the pool size. `sslmode` as libpq names
/// them: `disable` (the default), `prefer`, `require`, `verify-ca` and `verify-full`. `require` and `prefer` check the
/// server's certificate against the system's trust roots; `verify-ca` checks it against `sslrootcert` (a PEM file of
/// CA certificates, or `system`), `verify-full` also checks that it names the host. The password may come from
/// `storePasswordFile` or `VERIFY_SERVER_STORE_PASSWORD` instead of the URL.
public struct PostgresLocation: Sendable {
    /// The server's host name or address.
    public var host: String
    /// The server's port; 5432 when the URL names none.
    public var port: Int
    /// The user name, percent-decoded.
    public var username: String
    /// The password, percent-decoded; nil when the URL has none.
    public var password: String?
    /// The database name; nil when the URL has no path.
    public var database: String?
    /// The TLS mode: "disable" (the default), "prefer", "require", "verify-ca" or "verify-full".
    public var sslMode: String
    /// The CA certificates (PEM file path, or "system") the server's certificate must chain to; needed by verify-ca and
    /// verify-full.
    public var sslRootCert: String?
    /// The CA certificates read from `sslRootCert` when it names a file.
    let rootCertificates: [NIOSSLCertificate]?
    /// The most connections the pool opens (`max_connections`); 20 by default.
    public var maximumConnections: Int

    /// Parses a `postgres://` or `postgresql://` URL.
    ///
    /// Throws `RequestStoreError` for another scheme, a missing host or user name, an unknown `sslmode` or a
    /// `max_connections` that is not a positive integer; the error message never repeats the password.
    public init(url text: String) throws(RequestStoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql"
        else { throw RequestStoreError("store URL is not a postgres:// URL") }
        guard let host = components.host, !host.isEmpty else { throw RequestStoreError("postgres store URL has no host") }
        guard let user = components.user, !user.isEmpty else { throw RequestStoreError("postgres store URL has no user name") }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? nil : path
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        self.sslMode = query["sslmode"] ?? "disable"
        guard Self.sslModes.contains(sslMode) else {
            throw RequestStoreError("postgres store URL: sslmode must be \(Self.sslModes.joined(separator: ", "))")
        }
        self.sslRootCert = query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        if sslMode.hasPrefix("verify-"), sslRootCert == nil {
            throw RequestStoreError("postgres store URL: sslmode=\(sslMode) needs sslrootcert (a PEM file of the CA certificates "
                + "the server's certificate chains to, or sslrootcert=system for the system's trust roots)")
        }
        if let path = sslRootCert, path != "system" {
            do {
                let certificates = try NIOSSLCertificate.fromPEMFile(path)
                guard !certificates.isEmpty else { throw RequestStoreError("") }
                rootCertificates = certificates
            } catch {
                throw RequestStoreError("postgres store URL: sslrootcert \(path) cannot be read as PEM CA certificates")
            }
        } else {
            rootCertificates = nil
        }
        if let text = query["max_connections"] {
            guard let value = Int(text), value > 0 else { throw RequestStoreError("postgres store URL: max_connections must be a positive integer") }
            self.maximumConnections = value
        } else {
            self.maximumConnections = 20
        }
    }

    /// The `sslmode` values accepted.
    static let sslModes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    /// The TLS settings of `sslMode`: nil for disable; verify-ca checks the chain to `sslrootcert` but not the name.
    var tlsConfiguration: TLSConfiguration? {
        guard sslMode != "disable" else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificates { configuration.trustRoots = .certificates(rootCertificates) }
        if sslMode == "verify-ca" { configuration.certificateVerification = .noHostnameVerification }
        return configuration
    }

    var tls: PostgresClient.Configuration.TLS {
        guard let configuration = tlsConfiguration else { return .disable }
        return sslMode == "prefer" ? .prefer(configuration) : .require(configuration)
    }

    /// The URL without its password, for logs and `/readyz`.
    public var redacted: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? "")"
    }
}
