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
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { throw bad("not a JSON object") }
        // A member that is present must have its type: a wrong one is named, never replaced by the default.
        func member<T>(_ container: [String: Any], _ key: String, _ path: String, as type: T.Type, _ expected: String) throws -> T? {
            guard let value = container[key], !(value is NSNull) else { return nil }
            guard let typed = value as? T else { throw bad("\(path) must be \(expected)") }
            return typed
        }
        func statuses(_ container: [String: Any], _ key: String) throws -> [Int]? {
            guard let list = try member(container, key, "verdict.\(key)", as: [Any].self, "a list of HTTP statuses") else { return nil }
            return try list.map { entry in
                guard let number = entry as? NSNumber, String(cString: number.objCType) != "c", let status = Int(exactly: number.doubleValue),
                      (100...599).contains(status) else { throw bad("verdict.\(key) must be a list of HTTP statuses (100–599)") }
                return status
            }
        }
        if let unknown = unknownMember(object) { throw bad(unknown) }
        func call(_ key: String) throws -> Call {
            guard let spec = try member(object, key, key, as: [String: Any].self, "an object"),
                  let url = try member(spec, "url", "\(key).url", as: String.self, "a string") else { throw bad("\(key).url is missing") }
            let method = (try member(spec, "method", "\(key).method", as: String.self, "a string") ?? "POST").uppercased()
            guard ["GET", "POST", "PUT"].contains(method) else { throw bad("\(key).method must be GET, POST or PUT") }
            return Call(method: method, url: url, body: spec["body"].map(jsonValue))
        }
        guard let origin = try member(object, "origin", "origin", as: String.self, "a string") else { throw bad("origin is missing") }
        let names = try member(object, "formats", "formats", as: [String].self, "a list of format names") ?? ["apple-app", "annex-c", "openid4vp"]
        let formats = try Set(names.map { name in
            guard let format = ResponseFormat(rawValue: name), format.hasRequestFlow else {
                throw bad("formats: \(InputQuote.short(name)) is not apple-app, annex-c or openid4vp")
            }
            return format
        })
        guard !formats.isEmpty else { throw bad("formats is empty") }
        let verdict = try member(object, "verdict", "verdict", as: [String: Any].self, "an object") ?? [:]
        let accept = Set(try statuses(verdict, "accept") ?? [200])
        let reject = Set(try statuses(verdict, "reject") ?? [400, 409, 410, 422])
        guard accept.isDisjoint(with: reject) else { throw bad("verdict.accept and verdict.reject share a status") }
        let codes: [String]
        if let one = verdict["codes"] as? String {
            codes = [one]
        } else {
            codes = try member(verdict, "codes", "verdict.codes", as: [String].self, "a JSON pointer or a list of them") ?? []
        }
        return Profile(origin: origin, formats: formats,
                       headers: try member(object, "headers", "headers", as: [String: String].self, "an object of strings") ?? [:],
                       create: try call("create"),
                       pointers: try member(object, "request", "request", as: [String: String].self, "an object of JSON pointers") ?? [:],
                       answer: try call("answer"), accept: accept, reject: reject,
                       verifiedPointer: try member(verdict, "verified", "verdict.verified", as: String.self, "a JSON pointer"),
                       codesPointers: codes)
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
    static func unknownMember(_ profile: [String: Any]) -> String? {
        for (path, keys) in members {
            guard let container = path.map({ profile[$0] as? [String: Any] }) ?? profile,
                  let unknown = container.keys.sorted().first(where: { !keys.contains($0) }) else { continue }
            let name = path.map { "\($0).\(unknown)" } ?? unknown
            return "\(InputQuote.short(name)) is not a profile member; \(path ?? "the profile") has \(keys.joined(separator: ", "))"
        }
        return nil
    }

    /// A Foundation JSON value as a `JSONValue` (members sorted, so the body is the same on every run).
    static func jsonValue(_ value: Any) -> JSONValue {
        switch value {
        case let text as String: return .string(text)
        case let number as NSNumber:
            // JSON true and false parse to NSNumbers of type char ("c"); JSON numbers never do.
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.stringValue)
        case let list as [Any]: return .array(list.map(jsonValue))
        case let object as [String: Any]: return .object(object.keys.sorted().map { ($0, jsonValue(object[$0] ?? NSNull())) })
        default: return .null
        }
    }
}
