import MdocModel
import Verifier

/// `session.json` as `mdocverify request <format>` writes it and the corpus holds it.
package enum SessionJSON {
    /// The version written.
    package static let version = 1

    /// The document with a final newline: version, format, the flow's kept state, the request when there is one,
    /// then the format's own members (Apple's merchant and team IDs).
    package static func bytes(format: String, state: KeptState, request: RequestPolicy?, extra: [(String, JSONValue)]) -> [UInt8] {
        var members: [(String, JSONValue)] = [("version", .int(version)), ("format", .string(format)), ("state", state.value)]
        if let request { members.append(("request", request.json)) }
        return Array((JSONValue.object(members + extra).serialized(pretty: true) + "\n").utf8)
    }
}
