import CBOR
import CryptoCore
import Foundation
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
public struct HTTPProfileTarget: ConformanceTarget {
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
    /// The Apple values; the origin is the profile's.
    let relyingParty: RelyingPartyValues
    let timeout: Double

    /// A target for the verifier the profile at `profilePath` describes, answering with `corpus`'s cases.
    public init(profilePath: String, corpus: ConformanceCorpus, relyingParty: RelyingPartyValues = RelyingPartyValues(),
                timeout: Double = 60) throws(ConformanceError) {
        self.profilePath = profilePath
        do {
            profile = try Self.read(profilePath)
        } catch let error as ConformanceError {
            throw error
        } catch {
            throw ConformanceError("profile \(profilePath): \(error)")
        }
        self.corpus = corpus
        material = try ConformanceError.material(of: corpus)
        self.relyingParty = relyingParty
        self.timeout = timeout
    }

    /// The profile, as the report names it.
    public var name: String { "http profile \(profilePath)" }

    /// Revocation material and the certificate profile are the verifier's configuration, not each case's.
    public var unsupported: Set<ConformanceCase.Requirement> { [.revocation, .certificateProfile] }

    /// Formats the profile does not list, and Apple without the merchant key, do not apply.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? {
        guard let format = ResponseFormat(rawValue: testCase.format), profile.formats.contains(format) else {
            return "the profile does not list \(testCase.format)"
        }
        return relyingParty.missing(for: format, option: "--merchant-key", fetches: false)
    }

    /// The `mdocverify` run of this one case.
    public func reproduce(_ testCase: ConformanceRunCase) -> String? {
        "mdocverify conformance run --case \(testCase.id) --target http --profile \(profilePath)"
            + (relyingParty.merchantKey == nil ? "" : " --merchant-key MERCHANT_KEY.pem")
    }

    /// Creates a request through the profile's create call, answers it as the kit's wallet with the case's faults,
    /// posts the answer and reads the verdict.
    public func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation {
        guard let libraryCase = testCase.libraryCase, let format = ResponseFormat(rawValue: testCase.format) else {
            return .error("the case is not in this mdocverify's catalogue")
        }
        return .catching {
            var values = ["format": format.rawValue, "origin": profile.origin]
            let documents = corpus.requestPolicy(for: libraryCase).documentsJSON
            let (createStatus, created) = try send(profile.create, values: values, json: ["documents": documents])
            guard (200..<300).contains(createStatus), let object = created, object.isObject else {
                return .error("the create call answered \(createStatus)")
            }
            let target = try walletTarget(format, object)
            if let idPointer = profile.pointers["id"] {
                guard let id = Self.pointer(idPointer, in: object)?.string else {
                    return .error("the create answer has no string at \(idPointer) (request.id)")
                }
                values["id"] = id
            }
            let answer = try corpus.answer(libraryCase, to: target, material: material)
            values["response"] = answer.postedText
            let json: [String: JSONValue] = ["documents": documents, "credential": VerifyServerTarget.credential(format.descriptor?.wire, answer.postedText)]
            return try .replaying(libraryCase) { try verdict(profile.answer, values: values, json: json) }
        }
    }

    /// The answer call's verdict: its status, then the `verified` pointer; the codes at the `codes` pointer.
    func verdict(_ call: Call, values: [String: String], json: [String: JSONValue]) throws -> ConformanceObservation {
        let (status, answer) = try send(call, values: values, json: json)
        var verdict: ConformanceCase.Verdict
        if profile.accept.contains(status) {
            verdict = .accept
        } else if profile.reject.contains(status) {
            verdict = .reject
        } else {
            return .error("the answer call returned \(status), in neither verdict.accept nor verdict.reject")
        }
        if let pointer = profile.verifiedPointer, let verified = Self.pointer(pointer, in: answer)?.bool {
            verdict = verified ? .accept : .reject
        }
        var codes: [String] = []
        for pointer in profile.codesPointers where codes.isEmpty {
            switch Self.pointer(pointer, in: answer) {
            case .string(let code)?: codes = [code]
            case .array(let list)?: codes = list.compactMap { $0.string ?? $0["code"]?.string }
            default: break
            }
        }
        return .verdict(verdict, codes: Array(Set(codes)).sorted(), detail: " (HTTP \(status))")
    }

    /// The profile's pointer names (`request.<name>`) for the values the kit's wallets read.
    static let pointerNames = ["nonce": "nonce", "encryptionInfo": "encryptionInfo", "protocol": "openid4vpProtocol", "data": "openid4vpData"]

    /// The kit's wallet for the verifier's request, from the values the profile's pointers find in the create answer.
    func walletTarget(_ format: ResponseFormat, _ object: JSONValue) throws -> ResponseTarget {
        try relyingParty.walletTarget(format, origin: profile.origin) { name in
            let key = Self.pointerNames[name] ?? name
            guard let pointer = profile.pointers[key], let found = Self.pointer(pointer, in: object) else {
                throw TargetFailure(description: "the create answer has nothing at the profile's request.\(key)")
            }
            return found
        }
    }

    /// One call of the profile, templates filled; the status and the parsed JSON answer (nil when it is not JSON).
    func send(_ call: Call, values: [String: String], json: [String: JSONValue]) throws -> (Int, JSONValue?) {
        guard let url = URL(string: Self.fill(call.url, values)), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
            throw TargetFailure(description: "the profile's url \(InputQuote.short(call.url)) is not an http(s) URL once filled")
        }
        let headers = profile.headers.mapValues { Self.fill($0, values) }
        let body = call.body.map { Self.fill($0, values, json) }
        // Messages name the profile's URL as written: the filled one may carry an ${env:…} secret.
        let (status, data) = try HTTPExchange.send(call.method, url, headers: headers, body: body, timeout: timeout,
                                                   displayURL: call.url)
        return (status, data.flatMap { JSONValue.read($0) })
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
    static func pointer(_ pointer: String, in root: JSONValue?) -> JSONValue? {
        guard pointer.hasPrefix("/") || pointer.isEmpty else { return nil }
        var current = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = current, object.isObject {
                current = object[key]
            } else if let array = current?.array, let index = Int(key), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }
}
