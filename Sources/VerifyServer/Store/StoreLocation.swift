import Foundation
import Logging

/// Where the request store lives, from the configured store URL.
///
/// `sqlite:PATH` / `sqlite:///ABSOLUTE/PATH` (embedded, the default), `postgres://…` (shared), `memory:` (tests only).
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite database file at `path` (the embedded store).
    case sqlite(path: String)
    /// A PostgreSQL database at the `postgres://` URL `url`, which may hold a password.
    case postgres(url: String)
    /// A store in process memory, for tests only.
    case memory

    /// The default: the SQLite file `verify-server.sqlite` in the working directory.
    public static let `default` = StoreLocation.sqlite(path: "verify-server.sqlite")

    /// Parses a store URL: `sqlite:PATH`, `sqlite:///ABSOLUTE/PATH`, `postgres://…` (or `postgresql://…`) or `memory:`.
    ///
    /// Throws `RequestStoreError` for any other scheme, an SQLite URL without a path, or an invalid PostgreSQL URL.
    public init(url: String) throws(RequestStoreError) {
        if url == "memory:" {
            self = .memory
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            _ = try PostgresLocation(url: url)
            self = .postgres(url: url)
        } else if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw RequestStoreError("sqlite store URL has no file path") }
            self = .sqlite(path: path)
        } else {
            throw RequestStoreError("store URL must start with sqlite:, postgres:// or memory:")
        }
    }

    /// The location for logs and `/readyz`, without credentials.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url): return (try? PostgresLocation(url: url).redacted) ?? "postgres://"
        case .memory: return "memory:"
        }
    }

    /// Opens the store (a PostgreSQL pool connects lazily, once its service runs); `password` (from `storePasswordFile`
    /// or `VERIFY_SERVER_STORE_PASSWORD`) is PostgreSQL's when the URL holds none.
    ///
    /// Throws `RequestStoreError` when the SQLite database cannot be opened or the PostgreSQL URL is invalid.
    public func open(logger: Logger, password: StorePassword? = nil) async throws -> any RequestStore {
        switch self {
        case .sqlite(let path): return try await SQLiteRequestStore.open(path: path, logger: logger)
        case .postgres(let url):
            var location = try PostgresLocation(url: url)
            if let password { location.password = password.value }
            return PostgresRequestStore(location: location, logger: logger)
        case .memory: return InMemoryRequestStore()
        }
    }
}
