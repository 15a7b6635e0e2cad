import CBOR
import CryptoCore
import Foundation
#if canImport(FoundationNetworking)
// On Linux, FoundationNetworking is URLSession over the system's libcurl, the same libcurl (and OpenSSL) the CLI's
// revocation fetch already loads: no second TLS stack.
import FoundationNetworking
#endif
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// `--target http --profile FILE`: someone else's verifier endpoints, described by a JSON profile.
///
///     {"origin": "https://shop.example",
///      "formats": ["annex-c", "openid4vp", "apple-app"],
///      "headers": {"Authorization": "Bearer ${env:RP_API_KEY}"},
///      "create": {"method": "POST", "url": "http://127.0.0.1:8080/v1/requests",
///                 "body": {"format": "${format}", "origin": "${origin}", "documents": "${documents}"}},
///      "request": {"id": "/requestId", "nonce": "/nonce", "encryptionInfo": "/data/encryptionInfo",
///                  "openid4vpProtocol": "/protocol", "openid4vpData": "/data"},
///      "answer": {"method": "POST", "url": "http://127.0.0.1:8080/v1/verify",
///                 "body": {"requestId": "${id}", "response": "${response}"}},
///      "verdict": {"accept": [200], "reject": [400, 409, 410, 422], "verified": "/verified",
///                  "codes": ["/errors", "/error/code"]}}
///
/// Templates: a string that is exactly `${documents}` or `${credential}` becomes that JSON value (the request's
/// documents; the DC API credential `{protocol, data}`, or `{"response"}` for Apple); `${format}`, `${origin}`,
/// `${id}`, `${response}` (the answer as a client posts it: base64 for Apple, the Annex C string, the OpenID4VP
/// result JSON) and `${env:NAME}` are replaced inside strings, URLs and headers. `request` holds RFC 6901 JSON
/// pointers into the create answer. The verdict: the status lists, then `verified` (a pointer to a boolean) when
/// given; `codes` (a pointer, or a list tried in turn) points to an array of codes or of objects with a `code`, or to
/// one code.
struct HTTPProfileTarget: ConformanceTarget {
    struct Profile: Sendable {
        let origin: String
        let formats: Set<ResponseFormat>
        let headers: [String: String]
        let create: Call
        let pointers: [String: String]
        let answer: Call
        let accept: Set<Int>
        let reject: Set<Int>
        let verifiedPointer: String?
        let codesPointers: [String]
    }

    struct Call: Sendable {
        let method: String
        let url: String
        let body: JSONValue?
    }

    let profile: Profile
    let profilePath: String
    let corpus: ConformanceCorpus
    let material: ConformanceCorpus.Material
    let merchantKey: PublicKey?
    let merchantID: String
    let teamID: String
    let timeout: Double

    init(profilePath: String, corpus: ConformanceCorpus, options: ConformanceOptions) throws {
        self.profilePath = profilePath
        profile = try Self.read(profilePath)
        self.corpus = corpus
        do {
            material = try corpus.material()
        } catch let error as SimulationError {
            throw UsageFailure(error.description)
        }
        merchantKey = try options.merchantKeyPath.map { try Simulate.AppleApp.publicKey($0).0 }
        merchantID = options.merchantID
        teamID = options.teamID
        timeout = options.timeout
    }

    var name: String { "http profile \(profilePath)" }

    func notApplicable(_ testCase: RunCase) -> String? {
        guard let format = ResponseFormat(rawValue: testCase.format), profile.formats.contains(format) else {
            return "the profile does not list \(testCase.format)"
        }
        if KitFormat.of(format)?.answerNeedsRelyingPartyKey == true && merchantKey == nil {
            return "\(format.rawValue) cases need --merchant-key (the verifier's merchant key)"
        }
        return nil
    }

    func reproduce(_ testCase: RunCase) -> String? {
        "mdocverify conformance run --case \(testCase.id) --target http --profile \(profilePath)"
            + (merchantKey == nil ? "" : " --merchant-key MERCHANT_KEY.pem")
    }

    func observe(_ testCase: RunCase) -> Observation {
        guard let libraryCase = testCase.libraryCase, let format = ResponseFormat(rawValue: testCase.format) else {
            return .error("the case is not in this mdocverify's catalogue")
        }
        do {
            var values = ["format": format.rawValue, "origin": profile.origin]
            let documents = VerifyServerTarget.documents(corpus.requestPolicy(for: libraryCase))
            let (createStatus, created) = try send(profile.create, values: values, json: ["documents": documents])
            guard (200..<300).contains(createStatus), let object = created as? [String: Any] else {
                return .error("the create call answered \(createStatus)")
            }
            let target = try walletTarget(format, object)
            if let idPointer = profile.pointers["id"] {
                guard let id = Self.pointer(idPointer, in: object) as? String else {
                    return .error("the create answer has no string at \(idPointer) (request.id)")
                }
                values["id"] = id
            }
            let answer = try corpus.answer(libraryCase, to: target, material: material)
            values["response"] = answer.postedText
            let json: [String: JSONValue] = ["documents": documents, "credential": VerifyServerTarget.credential(format, answer.postedText)]
            if libraryCase.postsTwice {
                guard case .verdict(.accept, _, _) = try verdict(profile.answer, values: values, json: json) else {
                    return .error("the first answer to the request was not accepted, so its replay proves nothing")
                }
            }
            return try verdict(profile.answer, values: values, json: json)
        } catch let failure as VerifyServerTarget.ServerFailure {
            return .error(failure.description)
        } catch {
            return .error("\(error)")
        }
    }

    /// The answer call's verdict: its status, then the `verified` pointer; the codes at the `codes` pointer.
    func verdict(_ call: Call, values: [String: String], json: [String: JSONValue]) throws -> Observation {
        let (status, answer) = try send(call, values: values, json: json)
        var verdict: ConformanceCase.Verdict
        if profile.accept.contains(status) {
            verdict = .accept
        } else if profile.reject.contains(status) {
            verdict = .reject
        } else {
            return .error("the answer call returned \(status), in neither verdict.accept nor verdict.reject")
        }
        if let pointer = profile.verifiedPointer, let verified = Self.pointer(pointer, in: answer) as? Bool {
            verdict = verified ? .accept : .reject
        }
        var codes: [String] = []
        for pointer in profile.codesPointers where codes.isEmpty {
            switch Self.pointer(pointer, in: answer) {
            case let code as String: codes = [code]
            case let list as [Any]: codes = list.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["code"] as? String) }
            default: break
            }
        }
        return .verdict(verdict, codes: Array(Set(codes)).sorted(), detail: " (HTTP \(status))")
    }

    /// The profile's pointer names (`request.<name>`) for the values the kit's wallets read.
    static let pointerNames = ["nonce": "nonce", "encryptionInfo": "encryptionInfo", "protocol": "openid4vpProtocol", "data": "openid4vpData"]

    /// The kit's wallet for the verifier's request, from the values the profile's pointers find in the create answer.
    func walletTarget(_ format: ResponseFormat, _ object: [String: Any]) throws -> ResponseTarget {
        guard let answering = KitFormat.of(format)?.answering else {
            throw VerifyServerTarget.ServerFailure(description: "no request flow for \(format.rawValue)")
        }
        let published = PublishedRequest(value: { name in
            let key = Self.pointerNames[name] ?? name
            guard let pointer = profile.pointers[key], let found = Self.pointer(pointer, in: object) else {
                throw VerifyServerTarget.ServerFailure(description: "the create answer has nothing at the profile's request.\(key)")
            }
            return found
        }, origin: profile.origin, merchantKey: merchantKey, merchantID: merchantID, teamID: teamID)
        do {
            return try answering(published)
        } catch let failure as VerifyServerTarget.ServerFailure {
            throw failure
        } catch {
            throw VerifyServerTarget.ServerFailure(description: "the kit cannot answer the \(format.rawValue) request: \(error)")
        }
    }

    /// One call of the profile, templates filled; the status and the parsed JSON answer (nil when it is not JSON).
    func send(_ call: Call, values: [String: String], json: [String: JSONValue]) throws -> (Int, Any?) {
        guard let url = URL(string: Self.fill(call.url, values)), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
            throw VerifyServerTarget.ServerFailure(description: "the profile's url \(InputQuote.short(call.url)) is not an http(s) URL once filled")
        }
        let headers = profile.headers.mapValues { Self.fill($0, values) }
        let body = call.body.map { Self.fill($0, values, json) }
        // Messages name the profile's URL as written: the filled one may carry an ${env:…} secret.
        let (status, data) = try HTTPExchange.send(call.method, url, headers: headers, body: body, timeout: timeout,
                                                   displayURL: call.url)
        return (status, data.flatMap { try? JSONSerialization.jsonObject(with: $0) })
    }

    /// `${name}` and `${env:NAME}` replaced in `text`, in one pass from left to right: what a value inserts (such as
    /// an id the tested verifier chose) is never scanned again, so it cannot name an environment variable.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = text[...]
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            out += rest[..<start.lowerBound]
            let name = rest[start.upperBound..<end]
            if name.hasPrefix("env:") {
                out += ProcessInfo.processInfo.environment[String(name.dropFirst(4))] ?? ""
            } else if let value = values[String(name)] {
                out += value
            } else {
                out += rest[start.lowerBound...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// The template with its strings filled; a string that is exactly `${name}` of a JSON value becomes that value.
    static func fill(_ template: JSONValue, _ values: [String: String], _ json: [String: JSONValue]) -> JSONValue {
        switch template {
        case .string(let text):
            if text.hasPrefix("${"), text.hasSuffix("}"), let value = json[String(text.dropFirst(2).dropLast())] { return value }
            return .string(fill(text, values))
        case .array(let items): return .array(items.map { fill($0, values, json) })
        case .object(let members): return .object(members.map { ($0.0, fill($0.1, values, json)) })
        default: return template
        }
    }

    /// RFC 6901: the value at `pointer` in `root`, or nil.
    static func pointer(_ pointer: String, in root: Any?) -> Any? {
        guard pointer.hasPrefix("/") || pointer.isEmpty else { return nil }
        var current = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = current as? [String: Any] {
                current = object[key]
            } else if let array = current as? [Any], let index = Int(key), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// Reads and checks the profile; every problem is a usage failure naming the member.
    static func read(_ path: String) throws -> Profile {
        let text = try InputFiles.readText(path, what: "profile", maxBytes: 1 << 20)
        func bad(_ why: String) -> UsageFailure {
            UsageFailure("profile \(path): \(why) (see `mdocverify conformance run --help` and the DocC article \"Test any verifier\")")
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

/// One HTTP exchange through URLSession (FoundationNetworking on Linux: the system libcurl and OpenSSL), blocking;
/// a 429 is waited out (its Retry-After, at most 5 s) and retried, up to 30 times. Each attempt ends by `timeout`
/// whatever the server trickles. A redirect is not followed (its 3xx is the answer: the headers, an API key among
/// them, never go to another address), and an answer body past `maxBodyBytes` ends the exchange as a failure,
/// whatever its Content-Length said; FoundationNetworking buffers a 3xx's body itself, which only the time bound
/// limits.
enum HTTPExchange {
    static let maxBodyBytes = 8 << 20

    static func send(_ method: String, _ url: URL, headers: [String: String], body: JSONValue?, timeout: Double,
                     displayURL: String) throws -> (Int, Data?) {
        let label = "\(method) \(InputQuote.short(displayURL))"
        for _ in 0..<30 {
            var request = URLRequest(url: url, timeoutInterval: max(1, timeout))
            request.httpMethod = method
            if let body {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.serializedBytes())
            }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let exchange = BoundedExchange(limit: maxBodyBytes)
            let session = URLSession(configuration: .ephemeral, delegate: exchange, delegateQueue: nil)
            let task = session.dataTask(with: request)
            task.resume()
            let late = exchange.done.wait(timeout: .now() + timeout) == .timedOut
            if late {
                // Cancelled and abandoned: on Linux a redirect's body can keep the task alive after cancel() until the
                // server ends it, so the call does not wait for that.
                task.cancel()
                _ = exchange.done.wait(timeout: .now() + 0.5)
            }
            session.finishTasksAndInvalidate()
            if late { throw VerifyServerTarget.ServerFailure(description: "\(label) gave no whole answer within \(timeout) s") }
            let answer = exchange.answer()
            if answer.overLimit {
                throw VerifyServerTarget.ServerFailure(description: "\(label) answered more than \(maxBodyBytes) bytes; refused")
            }
            guard let status = answer.status else {
                throw VerifyServerTarget.ServerFailure(description: "\(label) failed: " + (answer.error.map { $0.localizedDescription } ?? "no answer"))
            }
            guard status == 429 else { return (status, answer.data) }
            Thread.sleep(forTimeInterval: min(5, max(0.2, answer.retryAfter ?? 1)))
        }
        throw VerifyServerTarget.ServerFailure(description: "\(label) answered 429 (rate limited) 30 times")
    }
}

/// One exchange's answer, collected by URLSession's delegate queue and read after `done`: the body up to `limit`
/// bytes (the task is cancelled past it), redirects refused.
private final class BoundedExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let limit: Int
    private let lock = NSLock()
    private var data = Data()
    private var status: Int?
    private var retryAfter: Double?
    private var error: (any Error)?
    private var overLimit = false

    init(limit: Int) { self.limit = limit }

    func answer() -> (data: Data?, status: Int?, retryAfter: Double?, error: (any Error)?, overLimit: Bool) {
        lock.withLock { (status == nil ? nil : data, status, retryAfter, error, overLimit) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        lock.withLock {
            status = http?.statusCode
            retryAfter = (http?.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            overLimit = declared > limit
        }
        completionHandler(declared > limit ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive received: Data) {
        let over = lock.withLock { () -> Bool in
            guard !overLimit, data.count + received.count <= limit else {
                overLimit = true
                return true
            }
            data.append(received)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            if let error, !overLimit { self.error = error; status = nil }
        }
        done.signal()
    }
}
