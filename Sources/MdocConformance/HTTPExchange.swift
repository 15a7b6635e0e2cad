import Foundation
import MdocModel
import RevocationFetch

/// One HTTP exchange of a conformance target or the CLI's wallet, blocking, through the product's one outbound client
/// (`OutboundHTTP`, libcurl) with any destination allowed (the verifier under test often runs on loopback). A 429 is
/// waited out (its Retry-After, 0.2–5 s) and retried, up to 30 times. Each attempt ends by `timeout`. A redirect is
/// not followed (its 3xx is the answer: the headers, an API key among them, never go to another address), and an
/// answer body past `maxBodyBytes` ends the exchange as a failure.
enum HTTPExchange {
    static let maxBodyBytes = 8 << 20

    static func send(_ method: String, _ url: URL, headers: [String: String], body: JSONValue?, timeout: Double,
                     displayURL: String) throws -> (Int, Data?) {
        try send(method, url, headers: headers, body: body.map { ("application/json", Data($0.serializedBytes())) }, timeout: timeout,
                 displayURL: displayURL)
    }

    /// The exchange with a body of any content type (a wallet's form).
    static func send(_ method: String, _ url: URL, headers: [String: String], body: (contentType: String, bytes: Data)?, timeout: Double,
                     displayURL: String) throws -> (Int, Data?) {
        let label = "\(method) \(InputQuote.short(displayURL))"
        // At least a second, at most a day (`--timeout 1e300` is clamped, never trapped on).
        let seconds = timeout.isFinite ? min(max(1, timeout), 86_400) : 86_400
        var request = OutboundHTTP.Request(url.absoluteString, method: method, timeout: .milliseconds(Int64(seconds * 1000)), maxBytes: maxBodyBytes)
        request.headers = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if let body {
            // A Content-Type the caller gave (a profile's header) wins.
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { request.headers.append(("Content-Type", body.contentType)) }
            request.body = Array(body.bytes)
        }
        request.userAgent = "mdocverify conformance"
        for _ in 0 ..< 30 {
            switch OutboundHTTP.perform(request, policy: .anyAddress) {
            case .answered(let answer) where answer.status == 429:
                Thread.sleep(forTimeInterval: min(5, max(0.2, answer.retryAfter.flatMap(Double.init) ?? 1)))
            case .answered(let answer):
                return (answer.status, Data(answer.body))
            case .tooLarge:
                throw TargetFailure(description: "\(label) answered more than \(maxBodyBytes) bytes; refused")
            case .failed(_, timedOut: true):
                throw TargetFailure(description: "\(label) gave no whole answer within \(timeout) s")
            case .failed(let why, timedOut: false):
                throw TargetFailure(description: "\(label) failed: \(why)")
            case .refused(_, let address):
                throw TargetFailure(description: "\(label) failed: \(address) refused")
            }
        }
        throw TargetFailure(description: "\(label) answered 429 (rate limited) 30 times")
    }
}
