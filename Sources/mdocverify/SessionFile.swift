import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// `session.json`: what `request <format>` keeps for `verify <format> --session` (README, "Kept state").
///
///     {"version": 1, "format": "annex-c" | "apple-app" | "openid4vp",
///      "state": {…}, "request": {"documents": […]}, "merchantID": …, "teamID": …}
///
/// `state` is the format's kept state exactly as `verify-server` keeps it (`AnnexCFlow.state`, `AppleAppFlow.state`,
/// `OpenID4VPFlow.state`); `request` is the request policy; `merchantID` and `teamID` only for `apple-app`. Secret:
/// written with mode 0600. What an earlier mdocverify kept instead (an unversioned `session.json`, Annex C's separate
/// files) is refused: the request is created again.
struct SessionFile: Equatable {
    static let version = SessionJSON.version
    static let name = "session.json"
    /// The largest session file read; a real one is a few kilobytes.
    static let maxBytes = 1 << 20

    var format: VerificationReport.Format
    var state: KeptState
    var request: RequestPolicy?
    var merchantID: String?
    var teamID: String?

    /// The document, keys sorted, with a final newline.
    func encoded() -> Data {
        let apple = [("merchantID", merchantID), ("teamID", teamID)].compactMap { name, value in value.map { (name, JSONValue.string($0)) } }
        return Data(SessionJSON.bytes(format: format.rawValue, state: state, request: request, extra: apple))
    }

    /// The file at `path` as `request <expected>` writes it (a folder: its session.json); with `expected` nil, a
    /// session of whichever format it names (`inspect`). Every problem is a `UsageFailure` naming the fix; no value
    /// from the file is quoted. What an earlier mdocverify kept (Annex C's separate files, an unversioned
    /// session.json) is refused with the same fix: create the request again.
    static func read(_ path: String, expected: VerificationReport.Format?, inFolder: Bool = false) throws -> SessionFile {
        let command = "mdocverify request \(expected?.rawValue ?? "<format>")"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            // One level only: a session.json that is itself a folder (or a link back to one) is not followed.
            guard !inFolder else { throw UsageFailure("\(path) is a folder, not a session.json: pass the file `\(command)` wrote") }
            let inside = URL(fileURLWithPath: path).appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: inside) { return try read(inside, expected: expected, inFolder: true) }
            throw UsageFailure("\(path) is a folder without a \(name): pass the \(name) that `\(command)` wrote "
                               + "(files an earlier mdocverify kept instead are no longer read: create the request again)")
        }
        let text = try InputFiles.readText(path, what: "session", maxBytes: maxBytes)
        let fix = "pass the \(name) that `\(command)` wrote, or create one with it"
        guard let object = JSONValue.object(text, maxNodes: 1_000_000) else {
            throw UsageFailure("session at \(path) is not a JSON object: \(fix)")
        }
        guard let version = object["version"] else {
            throw UsageFailure("session at \(path) has no \"version\" (an earlier mdocverify wrote none): \(fix)")
        }
        guard let number = version.unsignedInteger else {
            throw UsageFailure("session at \(path): \"version\" is not a number: \(fix)")
        }
        guard number == Self.version else {
            throw UsageFailure("session at \(path) is version \(number); this mdocverify reads version \(Self.version): "
                               + "use the mdocverify that wrote it, or create the request again with this one")
        }
        let formats = RegisteredFormats.kits.formats
        guard let formatName = object["format"]?.string, let format = formats.format(named: formatName),
              formats.descriptor(format)?.hasRequestFlow == true
        else {
            let kept = formats.descriptors.filter(\.hasRequestFlow).map(\.format.rawValue).sorted().joined(separator: ", ")
            throw UsageFailure("session at \(path) names no format this mdocverify keeps sessions for (\(kept)): \(fix)")
        }
        if let expected, format != expected {
            throw UsageFailure("session at \(path) is for \(format.rawValue): check it with `mdocverify verify \(format.rawValue)`, "
                               + "or pass the session of your \(expected.rawValue) request")
        }
        guard let kept = object["state"], kept.isObject, let state = try? KeptState(json: kept.serializedBytes()) else {
            throw UsageFailure("session at \(path): \"state\" is not an object: \(fix)")
        }
        var request: RequestPolicy?
        if let policy = object["request"] {
            guard let decoded = try? JSONDecoder().decode(RequestPolicy.self, from: Data(policy.serializedBytes()))
            else { throw UsageFailure("session at \(path): \"request\" is not a request policy: \(fix)") }
            request = decoded
        }
        func member(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let string = value.string else { throw UsageFailure("session at \(path): \"\(key)\" is not a string: \(fix)") }
            return string
        }
        return SessionFile(format: format, state: state, request: request, merchantID: try member("merchantID"),
                           teamID: try member("teamID"))
    }

    /// The request policy to check the answer against: the session's, or `--request`'s; both must then agree.
    func policy(requestPath: String?) throws -> RequestPolicy? {
        let given = try InputFiles.request(requestPath)
        guard let given, let request else { return given ?? request }
        guard given == request else {
            throw UsageFailure("--request \(requestPath ?? "") differs from the request the session keeps; "
                               + "leave out --request (the session's request is used)")
        }
        return request
    }

    /// The Annex C session this file keeps.
    func annexC(request: RequestPolicy?) throws -> AnnexCSession {
        do {
            return try AnnexCFlow.session(state, request: request)
        } catch {
            throw incomplete(error)
        }
    }

    /// The OpenID4VP session this file keeps.
    func openID4VP(request: RequestPolicy?) throws -> OpenID4VPSession {
        do {
            return try OpenID4VPFlow.session(state, request: request)
        } catch {
            throw incomplete(error)
        }
    }

    /// The Apple in-app nonce this file keeps.
    func appleNonce() throws -> [UInt8] {
        do {
            return try AppleAppFlow.nonce(state)
        } catch {
            throw incomplete(error)
        }
    }

    /// What the format's flow says the kept state lacks, and the fix.
    func incomplete(_ error: VerificationError) -> UsageFailure {
        let command = "`mdocverify request \(format.rawValue)`"
        return UsageFailure(error.message.hasSuffix("create the request again") ? "\(error.message) with \(command)"
                            : "\(error.message): create the request again with \(command)")
    }
}

/// Values a command takes either from `--session` or from its own options, never both.
enum SessionValues {
    /// `option`'s value, or the session's `kept` value; exactly one of them must be there.
    static func one(_ option: String?, flag: String, kept: String?, session: String?) throws -> String {
        switch (option, kept) {
        case let (.some(value), nil):
            return value
        case let (nil, .some(value)):
            return value
        case (.some, .some):
            throw UsageFailure("\(flag) is kept in the session (\(session ?? SessionFile.name)); leave out \(flag)")
        case (nil, nil):
            throw UsageFailure(session == nil ? "pass \(flag), or --session with the session.json the request wrote"
                                              : "\(flag) is needed: the session does not keep it")
        }
    }
}
