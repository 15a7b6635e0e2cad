import Foundation
import MdocModel

/// What a relying party keeps between creating a request and verifying its answer: one JSON object.
///
/// A format keeps its own `Codable` state in it (`init(_:)`, `decode(_:format:)`); a front end may add its own members
/// beside the format's (`merging(_:)`), each side reading only the members its own type names. The server's store, its
/// state sealing, `session.json` and the conformance corpus keep the object whole without knowing a member. Secret: it
/// holds private keys and nonces, so it is never logged or sent to a client.
public struct KeptState: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The largest kept state read back; a format's is a few kilobytes.
    public static let maxBytes = 1 << 20
    static let maxNodes = 10_000

    /// No members: what a format that keeps nothing keeps.
    public static let empty = KeptState(members: [])

    /// The members, sorted by name.
    let members: [(String, JSONValue)]
    /// The object as JSON text, members sorted: written once, read by every `decode` and by the stores.
    public let json: String

    private init(members: [(String, JSONValue)]) {
        self.members = members.sorted { $0.0 < $1.0 }
        json = JSONValue.object(self.members).serialized()
    }

    /// `state` encoded as a JSON object (a format's own `Codable` state).
    ///
    /// Throws `input.malformed` when `state` does not encode as a JSON object.
    public init(_ state: some Encodable) throws(VerificationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(state) else {
            throw VerificationError(.inputMalformed, "the request's state cannot be kept: it does not encode as JSON")
        }
        try self.init(json: data)
    }

    /// A kept state read back from storage or a session file.
    ///
    /// Throws `input.malformed` unless `json` is one JSON object within `maxBytes`.
    public init(json: some Collection<UInt8>) throws(VerificationError) {
        guard json.count <= Self.maxBytes, let members = (try? JSONValue.parse(json, maxNodes: Self.maxNodes))?.members else {
            throw VerificationError(.inputMalformed, "the kept state is not one JSON object of at most \(Self.maxBytes) bytes")
        }
        self.init(members: members)
    }

    /// The kept state as a JSON value (an object), to embed in a larger document.
    public var value: JSONValue { .object(members) }

    /// Whether nothing is kept.
    public var isEmpty: Bool { members.isEmpty }

    /// The member names only: the values (keys, nonces) never reach a log or a failure message by printing.
    public var description: String { "KeptState(\(members.map(\.0).joined(separator: ", ")))" }

    /// As `description`: `dump` and debuggers see the member names, not the values.
    public var customMirror: Mirror { Mirror(self, children: ["members": members.map(\.0)]) }

    /// This state with `other`'s members added; on a name both hold, `other`'s value.
    public func merging(_ other: KeptState) -> KeptState {
        let names = Set(other.members.map(\.0))
        return KeptState(members: members.filter { !names.contains($0.0) } + other.members)
    }

    /// Whether both hold the same members with the same values (the same sorted JSON text).
    public static func == (lhs: KeptState, rhs: KeptState) -> Bool {
        lhs.json == rhs.json
    }

    /// The `State` this kept state holds, as kept by `format`.
    ///
    /// Members `State` does not name are ignored (a front end's own). Throws `input.malformed` naming the member that
    /// is missing or of the wrong type: a state kept by an earlier version that does not read back is refused, and
    /// the request is created again.
    public func decode<State: Decodable>(_ type: State.Type, format: VerificationReport.Format) throws(VerificationError) -> State {
        do {
            return try JSONDecoder().decode(State.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw VerificationError(.inputMalformed, "the kept \(format.rawValue) state \(Self.describe(error)); create the request again")
        } catch {
            throw VerificationError(.inputMalformed, "the kept \(format.rawValue) state does not read back; create the request again")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _):
            return "has no \(key.stringValue)"
        case .valueNotFound(_, let context) where !context.codingPath.isEmpty:
            return "has no \(path(context))"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "does not read back" : "has an unusable \(path(context))"
        default:
            return "does not read back"
        }
    }

    /// The top-level member: a name of the format's own type, never text from the stored state (a nested key, such
    /// as a query id, could carry anything to a terminal).
    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.first?.stringValue ?? ""
    }
}

extension KeyedDecodingContainer {
    /// The string at `key`, refused when empty: a kept value that must be there.
    package func nonEmpty(_ key: Key) throws -> String {
        let text = try decode(String.self, forKey: key)
        guard !text.isEmpty else { throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "empty")) }
        return text
    }
}
