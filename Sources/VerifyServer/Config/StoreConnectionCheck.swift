import Foundation
import Logging
import NIOPosix
import PostgresNIO

extension ServerConfiguration {
    /// Reaches the configured store once (`verify-server --check-config --connect`) and returns what went wrong, one
    /// line per problem; empty when the store answered.
    ///
    /// PostgreSQL: one connection with the configured TLS and password, `SELECT 1`, closed again; within
    /// `storeTimeout`. SQLite: the file is opened (created if missing, as at start) and closed. Nothing is written.
    public func checkStoreConnection(logger: Logger) async -> [String] {
        switch store {
        case .memory:
            return []
        case .sqlite(let path):
            do {
                let opened = try await SQLiteRequestStore.open(path: path, logger: logger)
                do {
                    try await opened.ping()
                } catch {
                    try? await opened.close()
                    throw error
                }
                try await opened.close()
                return []
            } catch {
                return ["store \(store.redacted): cannot be opened: \(error)"]
            }
        case .postgres(let url):
            do {
                var location = try PostgresLocation(url: url)
                if let storePassword { location.password = storePassword.value }
                return await Self.checkPostgres(location, timeout: storeTimeout, logger: logger)
            } catch {
                return ["store \(store.redacted): \(error.message)"]
            }
        }
    }

    private static func checkPostgres(_ location: PostgresLocation, timeout: TimeInterval, logger: Logger) async -> [String] {
        let prefix = "store \(location.redacted) (sslmode=\(location.sslMode))"
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            if let settings = location.tlsConfiguration {
                let context = try NIOSSLContext(configuration: settings)
                connectionTLS = location.sslMode == "prefer" ? .prefer(context) : .require(context)
            } else {
                connectionTLS = .disable
            }
        } catch {
            return ["\(prefix): the TLS settings cannot be used: \(error)"]
        }
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: connectionTLS)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let connection = try await PostgresConnection.connect(
                        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger).get()
                    do {
                        try await connection.query("SELECT 1", logger: logger)
                    } catch {
                        try? await connection.close().get()
                        throw error
                    }
                    try await connection.close().get()
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                    throw RequestStoreError("no answer within storeTimeout (\(timeout.formatted()) s)")
                }
                defer { group.cancelAll() }
                try await group.next()
            }
            return []
        } catch let error as RequestStoreError {
            return ["\(prefix): \(error.message)"]
        } catch {
            return ["\(prefix): \(explanation(of: error, location: location) ?? PostgresRequestStore.describing(error))"]
        }
    }

    /// One plain sentence for the failures an operator meets first (TLS, nothing listening); nil for others, which
    /// PostgreSQL or PostgresNIO names.
    private static func explanation(of error: any Error, location: PostgresLocation) -> String? {
        let text = String(reflecting: (error as? PSQLError)?.underlying ?? error)
        if text.contains("failedToValidateHostname") {
            return "TLS: the server's certificate does not name \(location.host) (verify-full checks the name: connect by a name "
                + "or address the certificate lists, or use verify-ca)"
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed") {
            let roots = location.sslRootCert.map { $0 == "system" ? "the system's trust roots" : "sslrootcert \($0)" }
                ?? "the system's trust roots (sslmode=\(location.sslMode); for a private CA use verify-full with sslrootcert)"
            return "TLS: the server's certificate does not chain to \(roots)"
        }
        if (error as? PSQLError)?.code == .sslUnsupported {
            return "TLS: the server does not offer TLS (ssl=on in postgresql.conf), and sslmode=\(location.sslMode) requires it"
        }
        if text.contains("Connection refused") {
            return "nothing accepts connections at \(location.host):\(location.port) (connection refused)"
        }
        return nil
    }
}

private extension TimeInterval {
    func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}
