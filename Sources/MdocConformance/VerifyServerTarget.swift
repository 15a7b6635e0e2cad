import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// `--target verify-server URL`: for each case, creates a request, answers it as the kit's wallet with the case's
/// faults, posts the answer and reads the verdict. Without an API key through the request API (`POST /v1/requests`,
/// `POST /v1/verify`: 200 accepted, 422 the report's codes, another 4xx the error's code); with `--api-key-file`
/// through the backend API (`POST /v1/transactions` with the key, the wallet-facing
/// `POST /v1/wallet/{requestId}/response` with the client secret, then `GET /v1/transactions/{requestId}` for the
/// report's codes). A format answered by reference (openid4vp-redirect) goes as a wallet goes: the request object
/// fetched from the published `request_uri`, the form posted to its `response_uri`, the result read through the backend
/// API (so it needs the key). The server must trust the corpus IACA (`--write-trust FILE`) and, for Apple, hold the
/// private half of `--merchant-key` with the same merchant and team IDs.
public struct VerifyServerTarget: ConformanceTarget {
    /// The server's base URL.
    public let base: URL
    let corpus: ConformanceCorpus
    let material: ConformanceCorpus.Material
    let apiKey: String?
    let relyingParty: RelyingPartyValues
    let timeout: Double

    /// A target for the server at `base`, answering with `corpus`'s cases; with `apiKey` through the backend API.
    public init(base: URL, corpus: ConformanceCorpus, apiKey: String? = nil, relyingParty: RelyingPartyValues = RelyingPartyValues(),
                timeout: Double = 60) throws(ConformanceError) {
        self.base = base
        self.corpus = corpus
        material = try ConformanceError.material(of: corpus)
        self.apiKey = apiKey
        self.relyingParty = relyingParty
        self.timeout = timeout
    }

    /// The server, as the report names it.
    public var name: String { "verify-server \(base.absoluteString)" }

    /// The server's revocation material is its configuration, not each case's lists; its certificate profile is
    /// its own too (the default one only warns where Annex B's mandatory extensions are missing).
    public var unsupported: Set<ConformanceCase.Requirement> { [.revocation, .certificateProfile] }

    /// Formats without a request flow, Apple without the merchant key, and a format answered by reference without an
    /// API key do not apply.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? {
        guard let format = corpus.registry.formats.format(named: testCase.format),
              let descriptor = corpus.registry.formats.descriptor(format), descriptor.hasRequestFlow else {
            return "verify-server verifies only formats it makes requests for"
        }
        if descriptor.wire.byReference, apiKey == nil {
            return "\(format.rawValue)'s wallet posts to the server itself and only the backend API reads the result: give --api-key-file"
        }
        return relyingParty.missing(for: format, option: "--merchant-key", fetches: true, in: corpus.registry)
    }

    /// Creates a request, answers it as the kit's wallet with the case's faults and reads the server's verdict.
    public func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation {
        guard let libraryCase = testCase.libraryCase, let format = corpus.registry.formats.format(named: testCase.format) else {
            return .error("the case is not in this mdocverify's catalogue")
        }
        return .catching {
            let (requestID, fields) = try createRequest(format: format, policy: corpus.requestPolicy(for: libraryCase))
            let target = try relyingParty.walletTarget(format, fields: fields, in: corpus.registry, fetch: fetchRequestObject)
            let secret = fields["clientSecret"]?.string
            let answer: SimulatedResponse
            do {
                answer = try corpus.answer(libraryCase, to: target, material: material)
            } catch {
                return .error("the kit could not answer the server's request: \(error)")
            }
            let post = try walletPost(format, answer.postedText, to: target.responseURI, secret: secret)
            return try .replaying(libraryCase) { try verify(requestID, answer.postedText, post) }
        }
    }

    /// The `mdocverify` run of this one case.
    public func reproduce(_ testCase: ConformanceRunCase) -> String? {
        "mdocverify conformance run --case \(testCase.id) --target verify-server \(base.absoluteString)"
            + (relyingParty.merchantKey == nil ? "" : " --merchant-key MERCHANT_KEY.pem")
    }

    /// `POST /v1/requests`, or with an API key `POST /v1/transactions`: the request ID and the public fields (with the
    /// transaction's `clientSecret`).
    func createRequest(format: ResponseFormat, policy: RequestPolicy) throws -> (String, JSONValue) {
        let body = JSONValue.object([("format", .string(format.rawValue)), ("origin", .string(relyingParty.origin)),
                                     ("documents", policy.documentsJSON)])
        let path = apiKey == nil ? "v1/requests" : "v1/transactions"
        let (status, object) = try call("POST", path, body)
        guard status == 201, let requestID = object["requestId"]?.string else {
            throw TargetFailure(description: "POST /\(path) answered \(status)\(Self.errorText(object)): check the server's configuration")
        }
        return (requestID, object)
    }

    /// What a page posts to the wallet-facing endpoint: the DC API credential `{protocol, data}` for a format
    /// answered through the API, `{"response": …}` otherwise.
    static func credential(_ wire: FormatWire?, _ posted: String) -> JSONValue {
        guard let wire, let defaultProtocol = wire.dcAPIProtocols.first else {
            return .object([("response", .string(posted))])
        }
        guard wire.takesWholeCredential else {
            return .object([("protocol", .string(defaultProtocol)), ("data", .object([("response", .string(posted))]))])
        }
        // The kit's answer is the whole DC API result already.
        if let object = JSONValue.read(posted.utf8), let protocolIdentifier = object["protocol"]?.string,
           let response = object["data"]?["response"]?.string {
            return .object([("protocol", .string(protocolIdentifier)), ("data", .object([("response", .string(response))]))])
        }
        return .object([("response", .string(posted))])
    }

    /// The wallet's fetch of a request object (`WalletHTTP`).
    func fetchRequestObject(_ requestURI: String, _ walletNonce: String) throws -> String {
        do {
            return try WalletHTTP.fetchRequestObject(requestURI, walletNonce: walletNonce, timeout: timeout)
        } catch {
            throw TargetFailure(description: error.description)
        }
    }

    /// How the kit's answer reaches the server: posted by the page to the wallet-facing endpoint with the client
    /// secret, or by the wallet itself as a form to the request's `response_uri`.
    enum WalletPost {
        case page(credential: JSONValue, secret: String)
        case form(String, to: String)
    }

    /// The post of `posted` for `format`: to `responseURI` when the wallet posts itself, else through the page (a
    /// transaction's client secret needed).
    func walletPost(_ format: ResponseFormat, _ posted: String, to responseURI: String?, secret: String?) throws -> WalletPost? {
        if let responseURI { return .form(posted, to: responseURI) }
        guard apiKey != nil else { return nil }
        guard let secret else { throw TargetFailure(description: "POST /v1/transactions answered no clientSecret") }
        return .page(credential: Self.credential(corpus.registry.formats.descriptor(format)?.wire, posted), secret: secret)
    }

    /// `POST /v1/verify` (or, for a transaction, the wallet-facing endpoint and the status): 200 accepted; 422
    /// rejected with the report's codes; another 4xx rejected with the error's code.
    func verify(_ requestID: String, _ response: String, _ post: WalletPost?) throws -> ConformanceObservation {
        if let post { return try answerTransaction(requestID, post) }
        let (status, object) = try call("POST", "v1/verify", .object([("requestId", .string(requestID)), ("response", .string(response))]))
        switch status {
        case 200:
            return .verdict(.accept, codes: [], detail: "")
        case 422:
            let codes = (object["errors"]?.array ?? []).compactMap { $0["code"]?.string }
            return .verdict(.reject, codes: Array(Set(codes)).sorted(), detail: "")
        case 400..<500:
            let code = object["error"]?["code"]?.string
            return .verdict(.reject, codes: code.map { [$0] } ?? [], detail: " (HTTP \(status))")
        default:
            return .error("POST /v1/verify answered \(status)\(Self.errorText(object))")
        }
    }

    /// The wallet-facing post (`POST /v1/wallet/{requestId}/response` with the client secret, or the wallet's form to
    /// `response_uri`): a 200, then `GET /v1/transactions/{requestId}` for the report's codes; a 4xx is rejected with
    /// the error's code.
    func answerTransaction(_ requestID: String, _ post: WalletPost) throws -> ConformanceObservation {
        let path: String
        let status: Int
        let object: JSONValue
        switch post {
        case .page(let credential, let secret):
            path = "/v1/wallet/{requestId}/response"
            (status, object) = try call("POST", "v1/wallet/\(requestID)/response", credential, headers: ["X-Client-Secret": secret], withKey: false)
        case .form(let form, let responseURI):
            path = "response_uri"
            do {
                (status, object) = try WalletHTTP.postAnswer(form, to: responseURI, timeout: timeout)
            } catch {
                throw TargetFailure(description: error.description)
            }
        }
        switch status {
        case 200:
            let (statusCode, transaction) = try call("GET", "v1/transactions/\(requestID)", nil)
            guard statusCode == 200, let state = transaction["status"]?.string else {
                return .error("GET /v1/transactions/{requestId} answered \(statusCode)\(Self.errorText(transaction))")
            }
            let codes = (transaction["report"]?["errors"]?.array ?? []).compactMap { $0["code"]?.string }
            switch state {
            case "verified": return .verdict(.accept, codes: [], detail: "")
            case "rejected": return .verdict(.reject, codes: Array(Set(codes)).sorted(), detail: "")
            default: return .error("the transaction is \(state) after the wallet's answer")
            }
        case 400..<500:
            let code = object["error"]?["code"]?.string
            return .verdict(.reject, codes: code.map { [$0] } ?? [], detail: " (HTTP \(status))")
        default:
            return .error("POST \(path) answered \(status)\(Self.errorText(object))")
        }
    }

    /// One JSON call through `HTTPExchange` (429 waited out); the status and the JSON object answered (empty when the
    /// body is not one).
    func call(_ method: String, _ path: String, _ body: JSONValue?, headers: [String: String] = [:], withKey: Bool = true) throws
        -> (Int, JSONValue) {
        var headers = headers
        if withKey, let apiKey { headers["Authorization"] = "Bearer \(apiKey)" }
        let url = base.appendingPathComponent(path)
        let (status, data) = try HTTPExchange.send(method, url, headers: headers, body: body, timeout: timeout, displayURL: InputQuote.redactedURL(url.absoluteString))
        return (status, data.flatMap { JSONValue.read($0) } ?? .object([]))
    }

    static func errorText(_ object: JSONValue) -> String {
        guard let code = object["error"]?["code"]?.string else { return "" }
        return " (\(code): \(object["error"]?["message"]?.string ?? ""))"
    }
}
