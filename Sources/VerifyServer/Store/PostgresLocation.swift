import Foundation
import PostgresNIO

/// A PostgreSQL server from a `postgres://user:password@host:port/database?sslmode=disable|prefer|require` URL.
///
/// `postgresql://` is accepted too, and a `max_connections` query item sets the pool size.
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
    /// The TLS mode: "disable" (the default), "prefer" or "require".
    public var sslMode: String
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
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw RequestStoreError("postgres store URL: sslmode must be disable, prefer or require")
        }
        if let text = query["max_connections"] {
            guard let value = Int(text), value > 0 else { throw RequestStoreError("postgres store URL: max_connections must be a positive integer") }
            self.maximumConnections = value
        } else {
            self.maximumConnections = 20
        }
    }

    var tls: PostgresClient.Configuration.TLS {
        switch sslMode {
        case "require": return .require(.makeClientConfiguration())
        case "prefer": return .prefer(.makeClientConfiguration())
        default: return .disable
        }
    }

    /// The URL without its password, for logs and `/readyz`.
    public var redacted: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? "")"
    }
}
