import Foundation
import MdocModel
import MdocTesting
import Verifier

extension HTTPProfileTarget {
    /// Reads and checks the profile; every problem is a usage failure naming the member.
    static func read(_ path: String) throws -> Profile {
        let text = try ConformanceError.readText(path, what: "profile", maxBytes: 1 << 20)
        func bad(_ why: String) -> ConformanceError {
            ConformanceError("profile \(path): \(why) (see `mdocverify conformance run --help` and the DocC article \"Test any verifier\")")
        }
        guard let object = JSONValue.object(text, maxNodes: 100_000) else { throw bad("not a JSON object (each member named once)") }
        // A member that is present must have its type: a wrong one is named, never replaced by the default.
        func member<T>(_ container: JSONValue, _ key: String, _ path: String, _ expected: String, _ read: (JSONValue) -> T?) throws -> T? {
            guard let value = container[key], value != .null else { return nil }
            guard let typed = read(value) else { throw bad("\(path) must be \(expected)") }
            return typed
        }
        func statuses(_ container: JSONValue, _ key: String) throws -> [Int]? {
            let invalid = "a list of HTTP statuses (100–599)"
            guard let list = try member(container, key, "verdict.\(key)", invalid, \.array) else { return nil }
            return try list.map { entry in
                guard case .number(let text) = entry, let status = Int(text), (100...599).contains(status) else {
                    throw bad("verdict.\(key) must be \(invalid)")
                }
                return status
            }
        }
        if let unknown = unknownMember(object) { throw bad(unknown) }
        func call(_ key: String) throws -> Call {
            guard let spec = try member(object, key, key, "an object", { $0.isObject ? $0 : nil }),
                  let url = try member(spec, "url", "\(key).url", "a string", \.string) else { throw bad("\(key).url is missing") }
            let method = (try member(spec, "method", "\(key).method", "a string", \.string) ?? "POST").uppercased()
            guard ["GET", "POST", "PUT"].contains(method) else { throw bad("\(key).method must be GET, POST or PUT") }
            return Call(method: method, url: url, body: spec["body"])
        }
        guard let origin = try member(object, "origin", "origin", "a string", \.string) else { throw bad("origin is missing") }
        // A client creates the request and posts the answer: every format with a request flow but one a wallet
        // fetches by reference.
        let posted = FormatRegistry.descriptors.filter { $0.hasRequestFlow && !$0.wire.byReference }.map(\.format.rawValue)
        let names = try member(object, "formats", "formats", "a list of format names", Self.strings) ?? posted
        let formats = try Set(names.map { name in
            guard posted.contains(name), let format = ResponseFormat(rawValue: name) else {
                throw bad("formats: \(InputQuote.short(name)) is not \(posted.joined(separator: ", "))")
            }
            return format
        })
        guard !formats.isEmpty else { throw bad("formats is empty") }
        let verdict = try member(object, "verdict", "verdict", "an object", { $0.isObject ? $0 : nil }) ?? .object([])
        let accept = Set(try statuses(verdict, "accept") ?? [200])
        let reject = Set(try statuses(verdict, "reject") ?? [400, 409, 410, 422])
        guard accept.isDisjoint(with: reject) else { throw bad("verdict.accept and verdict.reject share a status") }
        let codes: [String]
        if let one = verdict["codes"]?.string {
            codes = [one]
        } else {
            codes = try member(verdict, "codes", "verdict.codes", "a JSON pointer or a list of them", Self.strings) ?? []
        }
        return Profile(origin: origin, formats: formats,
                       headers: try member(object, "headers", "headers", "an object of strings", Self.stringMembers) ?? [:],
                       create: try call("create"),
                       pointers: try member(object, "request", "request", "an object of JSON pointers", Self.stringMembers) ?? [:],
                       answer: try call("answer"), accept: accept, reject: reject,
                       verifiedPointer: try member(verdict, "verified", "verdict.verified", "a JSON pointer", \.string),
                       codesPointers: codes)
    }

    /// An array of strings as `[String]`; nil for anything else.
    static func strings(_ value: JSONValue) -> [String]? {
        guard let items = value.array else { return nil }
        let texts = items.compactMap(\.string)
        return texts.count == items.count ? texts : nil
    }

    /// An object of strings as a dictionary; nil for anything else.
    static func stringMembers(_ value: JSONValue) -> [String: String]? {
        guard let members = value.members, members.allSatisfy({ $0.1.string != nil }) else { return nil }
        return Dictionary(members.map { ($0.0, $0.1.string ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The members a profile and its objects may have.
    private static let members: [(path: String?, keys: [String])] = [
        (nil, ["origin", "formats", "headers", "create", "request", "answer", "verdict"]),
        ("create", ["method", "url", "body"]), ("answer", ["method", "url", "body"]),
        ("request", ["id", "nonce", "encryptionInfo", "openid4vpProtocol", "openid4vpData"]),
        ("verdict", ["accept", "reject", "verified", "codes"]),
    ]

    /// A message naming the first member the profile format does not have: a typo (`verdcit`, `acept`) is never
    /// silently ignored. An object of the wrong type is left to the type checks.
    static func unknownMember(_ profile: JSONValue) -> String? {
        for (path, keys) in members {
            guard let container = (path.map { profile[$0] } ?? profile)?.members,
                  let unknown = container.map(\.0).sorted().first(where: { !keys.contains($0) }) else { continue }
            let name = path.map { "\($0).\(unknown)" } ?? unknown
            return "\(InputQuote.short(name)) is not a profile member; \(path ?? "the profile") has \(keys.joined(separator: ", "))"
        }
        return nil
    }
}
