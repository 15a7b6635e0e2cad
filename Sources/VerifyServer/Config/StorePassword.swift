import Foundation
import Logging

/// The PostgreSQL store's password, kept apart from the store URL: its text never appears in a description, a dump or
/// a log line.
public struct StorePassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password itself.
    public let value: String

    /// A password given as text (`VERIFY_SERVER_STORE_PASSWORD`).
    public init(_ value: String) { self.value = value }

    /// The password in the file at `path`: its text without the trailing line break.
    init(file path: String) throws(ConfigurationValueError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationValueError("cannot read \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw ConfigurationValueError("\(path) is empty") }
        value = text
    }

    /// "(redacted)".
    public var description: String { "(redacted)" }
    /// "(redacted)".
    public var debugDescription: String { "(redacted)" }
    /// No children: a dump shows nothing of the password.
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension ConfigurationKey {
    /// Keys that may be set only from the environment: a config file is often readable by more people.
    static let environmentOnly: Set<String> = ["storePassword"]
}

extension ServerConfiguration {
    /// A password given both in the URL and apart, or apart for a store that takes none.
    var storePasswordProblems: [String] {
        guard storePassword != nil else { return [] }
        guard case .postgres(let url) = store else {
            return ["storePasswordFile / VERIFY_SERVER_STORE_PASSWORD set, but the store is not a postgres:// URL"]
        }
        if (try? PostgresLocation(url: url))?.password != nil {
            return ["the PostgreSQL password is given twice: in storeURL and in storePasswordFile / VERIFY_SERVER_STORE_PASSWORD; keep one"]
        }
        return []
    }
}
