import CBOR
import CListFetch
import Foundation

/// Where outbound requests may go and whom they trust, in one place for every outbound call the product makes (list
/// fetching, webhooks, the conformance targets): only public addresses unless `allow` names the host or its network
/// (or `anyAddress`, for a test target on loopback), and the system's CA store plus `caFile`. The check runs in C on
/// every connection's resolved address (`list_fetch_policy`).
package struct OutboundPolicy: Sendable {
    /// Destinations allowed although not public.
    package let allow: [FetchDestination]
    /// CA certificates a TLS peer may also chain to (PEM file); nil: the system's store only.
    package let caFile: String?
    /// Every address is allowed: the conformance targets, which test a verifier the operator started, often on
    /// loopback.
    package let anyAddress: Bool

    package init(allow: [FetchDestination], caFile: String?, anyAddress: Bool = false) {
        self.allow = allow
        self.caFile = caFile
        self.anyAddress = anyAddress
    }

    /// Any address, the system's CA store.
    package static let anyAddress = OutboundPolicy(allow: [], caFile: nil, anyAddress: true)

    /// `body` with the C policy for a request to `host`.
    func withPolicy<T>(host: String, _ body: (UnsafeMutablePointer<list_fetch_policy>) -> T) -> T {
        let networks = allow.compactMap(\.cNetwork)
        let hostAllowed = anyAddress || allow.contains { $0.host == host }
        return networks.withUnsafeBufferPointer { buffer in
            withOptionalCString(caFile) { caFile in
                var policy = list_fetch_policy(networks: buffer.baseAddress, network_count: buffer.count,
                                               allow_any_address: hostAllowed ? 1 : 0, ca_file: caFile)
                return body(&policy)
            }
        }
    }

    /// A fixed-size C text field as a String.
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// One outbound HTTP request on the system's libcurl (its easy interface blocks the calling thread): no redirect
/// followed (a 3xx is the answer, with its Location), no proxy, the body kept up to a limit. List fetching, webhooks
/// and the conformance targets all go through it.
package enum OutboundHTTP {
    package struct Request: Sendable {
        package var method = "GET"
        package var url: String
        /// Header fields; a name or value with a line break or NUL is refused before anything is sent.
        package var headers: [(name: String, value: String)] = []
        package var body: [UInt8]?
        package var timeout: Duration
        /// The most body kept; past it the answer is `.tooLarge` (with `discardBody`, the most read: the answer counts).
        package var maxBytes: Int
        /// The body is read and dropped (a webhook receiver's answer).
        package var discardBody = false
        package var userAgent = "WalletVerifier"

        package init(_ url: String, method: String = "GET", timeout: Duration, maxBytes: Int) {
            self.method = method
            self.url = url
            self.timeout = timeout
            self.maxBytes = maxBytes
        }
    }

    package struct Answer: Sendable {
        package let status: Int
        package let body: [UInt8]
        /// The Location of a 3xx, resolved against the URL; nil without one.
        package let location: String?
        /// The Location did not fit the 2 KB kept.
        package let locationTooLong: Bool
        /// The Retry-After header as sent.
        package let retryAfter: String?
    }

    package enum Outcome: Sendable {
        case answered(Answer)
        /// The host resolved to an address the policy does not allow (no connection was made); the address.
        case refused(host: String, address: String)
        /// The body passed `maxBytes`.
        case tooLarge
        /// No answer: timed out, refused, a TLS failure (libcurl's message, escaped for logs).
        case failed(String, timedOut: Bool)
    }

    package static func perform(_ request: Request, policy: OutboundPolicy) -> Outcome {
        let unsafe: (String) -> Bool = { $0.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }
        guard !request.headers.contains(where: { unsafe($0.name) || unsafe($0.value) || $0.name.contains(":") }) else {
            return .failed("a header name or value holds a line break, NUL or a colon in its name", timedOut: false)
        }
        let host = URL(string: request.url)?.host?.lowercased() ?? ""
        let lines = request.headers.map { strdup("\($0.name): \($0.value)") }
        defer { lines.forEach { free($0) } }
        let pointers = lines.map { UnsafePointer($0) }
        var result = list_fetch_result()
        defer { list_fetch_free(&result) }
        // At least 1 ms, at most a day: a longer Duration is clamped, never trapped on.
        let milliseconds = Int(min(max(request.timeout / .milliseconds(1), 1), 86_400_000))
        let started = policy.withPolicy(host: host) { cPolicy in
            pointers.withUnsafeBufferPointer { headers in
                withBody(request.body) { body, length in
                    request.method.withCString { method in
                        request.url.withCString { url in
                            request.userAgent.withCString { userAgent in
                                var call = list_fetch_request(method: method, url: url, headers: headers.baseAddress, header_count: headers.count,
                                                              body: body, body_length: length, timeout_ms: milliseconds,
                                                              max_bytes: request.maxBytes, discard_body: request.discardBody ? 1 : 0,
                                                              user_agent: userAgent)
                                return list_fetch_perform(&call, cPolicy, &result)
                            }
                        }
                    }
                }
            }
        }
        guard started == 0 else { return .failed("libcurl could not start a transfer", timedOut: false) }
        if result.refused_destination != 0 { return .refused(host: host, address: OutboundPolicy.text(result.refused_address)) }
        if result.too_large != 0 { return .tooLarge }
        guard result.ok != 0 else {
            // libcurl's message may quote what the peer sent (a certificate's subject): escaped for the log.
            return .failed(result.timed_out != 0 ? "no answer in time" : TerminalText.escaped(OutboundPolicy.text(result.error)),
                           timedOut: result.timed_out != 0)
        }
        let location = OutboundPolicy.text(result.redirect)
        let retryAfter = OutboundPolicy.text(result.retry_after)
        return .answered(Answer(status: Int(result.status), body: result.body.map { Array(UnsafeBufferPointer(start: $0, count: result.length)) } ?? [],
                                location: location.isEmpty ? nil : location, locationTooLong: result.redirect_too_long != 0,
                                retryAfter: retryAfter.isEmpty ? nil : retryAfter))
    }

    private static func withBody<T>(_ body: [UInt8]?, _ work: (UnsafePointer<UInt8>?, Int) -> T) -> T {
        guard let body else { return work(nil, 0) }
        // A non-NULL pointer even for an empty body, so an empty POST still sends Content-Length: 0.
        return (body.isEmpty ? [0] : body).withUnsafeBufferPointer { work($0.baseAddress, body.count) }
    }

    /// Runs blocking work on a thread of its own, so no task executor thread waits on the network.
    package static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
