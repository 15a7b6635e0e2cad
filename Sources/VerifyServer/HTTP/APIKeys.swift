import CryptoCore
import Foundation
import Hummingbird
import Mdoc
import MdocModel
import Verifier

/// One API key of the backend API (`POST /v1/transactions`, `GET /v1/transactions/{requestId}`), as configured:
/// its ID (in logs and metrics, never the key), the SHA-256 of the key, and what the key may create.
///
/// Several keys may be configured at once (rotation: add the new key, move the backend, remove the old one). The key
/// itself is never stored: `verify-server --new-api-key ID` prints a new one once, with its configuration entry.
public struct APIKey: Sendable, Equatable {
    /// The key's name, e.g. "shop-backend"; letters, digits, `-`, `_` and `.`.
    public var id: String
    /// SHA-256 of the key's text (32 bytes).
    public var sha256: [UInt8]
    /// The origins this key's web transactions may be bound to (serialized web origins, `https://host[:port]`): the
    /// backend names one, or the only one is used. Required for `annex-c` and `openid4vp`.
    public var origins: [String]
    /// The formats this key may create transactions for; empty: every format with a request flow.
    public var formats: [VerificationReport.Format]

    /// Creates a key entry from its fields.
    public init(id: String, sha256: [UInt8], origins: [String] = [], formats: [VerificationReport.Format] = []) {
        self.id = id
        self.sha256 = sha256
        self.origins = origins
        self.formats = formats
    }

    /// The prefix of keys `newKey()` makes, so a leaked key is recognised by secret scanners and in support tickets.
    public static let prefix = "vsk_"
    /// The shortest key text accepted from a `keyFile` (128 bits as base64url is 22 characters).
    static let shortestKey = 22
    /// The longest `Authorization` value examined; a longer one is refused unhashed.
    static let longestHeader = 512

    /// A new key: `vsk_` and 32 random bytes as base64url (256 bits), and its SHA-256 as lowercase hex.
    public static func newKey() -> (key: String, sha256: String) {
        let key = prefix + Base64URL.encode(SecureRandom.bytes(32))
        return (key, Hex.encode(Digest.hash(.sha256, Array(key.utf8))))
    }

    /// What `verify-server --new-api-key ID` prints: a new key, shown this once, and the configuration entry that
    /// holds only its SHA-256. Throws `ConfigurationProblems` for an unusable ID.
    public static func newKeyListing(id: String) throws(ConfigurationProblems) -> String {
        let problems = Self.problems([APIKey(id: id, sha256: Array(repeating: 0, count: 32), formats: [.appleApp])])
        guard problems.isEmpty else { throw ConfigurationProblems(problems) }
        let (key, hash) = newKey()
        return """
            API key \(id) (shown once: keep it in your backend's secret store; the server keeps only its SHA-256):
            \(key)

            Its entry under apiKeys in the configuration (list your pages' origins):
              - id: \(id)
                sha256: \(hash)
                origins: ["https://shop.example"]
                # formats: [annex-c, openid4vp]    (optional: only these formats; default every one)
            """
    }

    /// Whether the key may create transactions of `format`.
    func allows(_ format: VerificationReport.Format) -> Bool { formats.isEmpty || formats.contains(format) }

    /// The configuration problems of `keys`: IDs missing or repeated, hashes that are not 64 hex digits, origins that
    /// are not serialized web origins, formats `registry` does not serve with a request flow, the same key listed twice.
    static func problems(_ keys: [APIKey], formats registry: FormatRegistry = .standard) -> [String] {
        var problems: [String] = []
        var ids = Set<String>()
        var hashes = Set<[UInt8]>()
        let offered = registry.descriptors.filter(\.hasRequestFlow).map(\.format)
        for key in keys {
            let name = InputQuote.short(key.id)
            if key.id.isEmpty || key.id.count > 64 || !key.id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
                problems.append("apiKeys: id \(name) must be 1 to 64 letters, digits, `-`, `_` or `.`")
            }
            if !ids.insert(key.id).inserted { problems.append("apiKeys: id \(name) is listed twice") }
            if key.sha256.count != 32 { problems.append("apiKeys \(name): sha256 must be 64 hex digits (the SHA-256 of the key)") }
            else if !hashes.insert(key.sha256).inserted { problems.append("apiKeys \(name): the same key is listed under two ids") }
            for origin in key.origins where !isSerializedOrigin(origin) {
                problems.append("apiKeys \(name): origin \(InputQuote.short(origin)) is not a serialized web origin (https://host[:port], no path)")
            }
            for format in key.formats where !offered.contains(format) {
                problems.append("apiKeys \(name): format \(InputQuote.short(format.rawValue)) is not one of "
                                + offered.map(\.rawValue).joined(separator: ", "))
            }
            if key.origins.isEmpty, key.formats.isEmpty || key.formats.contains(where: { registry.descriptor($0)?.bindsOrigin == true }) {
                let web = registry.descriptors.filter(\.bindsOrigin).map(\.format.rawValue)
                problems.append("apiKeys \(name): \(web.joined(separator: " and ")) transactions need origins (list the pages' origins, or limit formats to the others)")
            }
        }
        return problems
    }

    /// `scheme://host[:port]` in lower case with no path, query or fragment, as a browser serializes an origin.
    static func isSerializedOrigin(_ origin: String) -> Bool {
        guard origin.hasPrefix("https://") || origin.hasPrefix("http://"), origin.utf8.count <= CreateRequestLimits.maxOriginBytes,
              let components = URLComponents(string: origin), let host = components.host, !host.isEmpty,
              components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil
        else { return false }
        return origin == origin.lowercased()
    }

    /// The keys of the `apiKeys` configuration value: from a file, a list of objects `{id, sha256 | keyFile, origins,
    /// formats}`; from the environment (`VERIFY_SERVER_API_KEYS`), the same list as JSON text.
    static func parse(_ value: ConfigurationValue) throws(ConfigurationValueError) -> [APIKey] {
        let objects: [[String: String]]
        if let list = value.objectList {
            objects = list
        } else if case .list(let entries) = value, entries.isEmpty {
            return []
        } else {
            let text = try value.text()
            guard !text.isEmpty else { return [] }
            guard let json = (try? JSONValue.parse(text.utf8, maxNodes: 100_000))?.array, json.allSatisfy(\.isObject) else {
                throw ConfigurationValueError("must be a list of {id, sha256, origins, formats} (JSON text in the environment)")
            }
            objects = try json.enumerated().map { index, object throws(ConfigurationValueError) in try fields(object, entry: index + 1) }
        }
        return try objects.map { object throws(ConfigurationValueError) in try key(object) }
    }

    /// One entry of the environment's JSON list as text fields (a list joined with commas). A member of another JSON
    /// type is refused: read as absent, a `formats` of the wrong type would allow every format.
    private static func fields(_ object: JSONValue, entry: Int) throws(ConfigurationValueError) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in object.members ?? [] {
            if let text = value.string {
                fields[name] = text
            } else if let items = value.array, case let texts = items.compactMap(\.string), texts.count == items.count {
                fields[name] = texts.joined(separator: ",")
            } else {
                throw ConfigurationValueError("entry \(entry): \(InputQuote.short(name)) is \(value.kind); it must be a string or a list of strings")
            }
        }
        return fields
    }

    private static func key(_ object: [String: String]) throws(ConfigurationValueError) -> APIKey {
        guard let id = object["id"] else { throw ConfigurationValueError("every entry needs an `id`") }
        let unknown = Set(object.keys).subtracting(["id", "sha256", "keyFile", "origins", "formats"])
        guard unknown.isEmpty else {
            throw ConfigurationValueError("entry \(InputQuote.short(id)) has unknown fields: \(unknown.sorted().joined(separator: ", "))")
        }
        let sha256: [UInt8]
        switch (object["sha256"], object["keyFile"]) {
        case (let hex?, nil):
            sha256 = Hex.decode(hex.trimmingCharacters(in: .whitespaces)) ?? []
        case (nil, let path?):
            sha256 = try hashOfKeyFile(path)
        default:
            throw ConfigurationValueError("entry \(InputQuote.short(id)) needs exactly one of `sha256` (the key's SHA-256) and `keyFile`")
        }
        func list(_ name: String) -> [String] {
            (object[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        // Checked against the formats the server is made with (`problems(_:formats:)`), which a test may extend.
        let formats = list("formats").map(VerificationReport.Format.init(registering:))
        return APIKey(id: id, sha256: sha256, origins: list("origins"), formats: formats)
    }

    /// The SHA-256 of the key held in the file at `path` (surrounding white space ignored); the file is read up to 1 KiB.
    private static func hashOfKeyFile(_ path: String) throws(ConfigurationValueError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ConfigurationValueError("keyFile \(path) cannot be read") }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1025), data.count <= 1024 else {
            throw ConfigurationValueError("keyFile \(path) is longer than 1024 bytes; it must hold the key alone")
        }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.utf8.count >= shortestKey, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationValueError("keyFile \(path) must hold one key of at least \(shortestKey) printable characters "
                + "(make one with `verify-server --new-api-key ID`)")
        }
        return Digest.hash(.sha256, Array(key.utf8))
    }
}

/// Finds the configured API key an `Authorization: Bearer` header names.
struct APIKeyAuthenticator: Sendable {
    let keys: [APIKey]

    /// What the header held.
    enum Outcome {
        case authenticated(APIKey)
        /// No `Authorization: Bearer` header.
        case missing
        /// A bearer token that is no configured key (or a header too long to be one).
        case invalid
    }

    /// The token of an `Authorization: Bearer <token>` value (the scheme in any case, RFC 9110 §11.1), trimmed; nil
    /// for another scheme.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Hashes the presented token and compares it with every configured hash in constant time (no early exit, so the
    /// time taken does not say which key, if any, came close).
    func authenticate(_ request: Request) -> Outcome {
        guard let header = request.headers[.authorization] else { return .missing }
        guard header.utf8.count <= APIKey.longestHeader else { return .invalid }
        guard let token = Self.bearerToken(header) else { return .missing }
        guard !token.isEmpty else { return .invalid }
        let hash = Digest.hash(.sha256, Array(token.utf8))
        var found: APIKey?
        for key in keys where constantTimeEquals(key.sha256, hash) && found == nil { found = key }
        return found.map { .authenticated($0) } ?? .invalid
    }
}
