import CBOR
import CListFetch
import Foundation

/// Where outbound requests may go and whom they trust, in one place for every outbound call the product makes (list
/// fetching, webhooks): only public addresses unless `allow` names the host or its network, and the system's CA store
/// plus `caFile`. The check runs in C on every connection's resolved address (`list_fetch_policy`).
package struct OutboundPolicy: Sendable {
    /// Destinations allowed although not public.
    package let allow: [FetchDestination]
    /// CA certificates a TLS peer may also chain to (PEM file); nil: the system's store only.
    package let caFile: String?

    package init(allow: [FetchDestination], caFile: String?) {
        self.allow = allow
        self.caFile = caFile
    }

    /// `body` with the C policy for a request to `host`.
    func withPolicy<T>(host: String, _ body: (UnsafeMutablePointer<list_fetch_policy>) -> T) -> T {
        let networks = allow.compactMap(\.cNetwork)
        let hostAllowed = allow.contains { $0.host == host }
        return networks.withUnsafeBufferPointer { buffer in
            withOptionalCString(caFile) { caFile in
                var policy = list_fetch_policy(networks: buffer.baseAddress, network_count: buffer.count,
                                               allow_any_address: hostAllowed ? 1 : 0, ca_file: caFile)
                return body(&policy)
            }
        }
    }

    /// The address a refused connection resolved to, as text.
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// One bounded POST under an `OutboundPolicy` (libcurl's easy interface: it blocks the calling thread): no redirect
/// followed, the answer's body not read past a status line and headers.
package enum OutboundPost {
    /// What one POST came to.
    package enum Outcome: Equatable, Sendable {
        /// An answer, with its status and its Retry-After in seconds when it carried one as a number.
        case answered(status: Int, retryAfter: Int?)
        /// The host resolved to an address the policy does not allow; the message names it.
        case refused(String)
        /// No answer: timed out, refused, a TLS failure (libcurl's message, escaped for logs).
        case failed(String)
    }

    package static func send(_ url: String, headers: [String], body: [UInt8], timeout: Duration, policy: OutboundPolicy) -> Outcome {
        let host = URL(string: url)?.host?.lowercased() ?? ""
        var result = list_post_result()
        let milliseconds = max(1, Int(timeout.components.seconds * 1000))
        let lines = headers.map { strdup($0) }
        defer { lines.forEach { free($0) } }
        let pointers = lines.map { UnsafePointer($0) }
        let started = policy.withPolicy(host: host) { cPolicy in
            pointers.withUnsafeBufferPointer { headerBuffer in
                body.withUnsafeBufferPointer { bodyBuffer in
                    list_post(url, headerBuffer.baseAddress, headerBuffer.count, bodyBuffer.baseAddress, bodyBuffer.count,
                              milliseconds, cPolicy, &result)
                }
            }
        }
        guard started == 0 else { return .failed("libcurl could not start a transfer") }
        if result.refused_destination != 0 {
            return .refused("\(host) resolved to \(OutboundPolicy.text(result.refused_address)), which is not a public address")
        }
        guard result.ok != 0 else {
            // libcurl's message may quote what the peer sent (a certificate's subject): escaped for the log.
            return .failed(result.timed_out != 0 ? "no answer in time" : TerminalText.escaped(OutboundPolicy.text(result.error)))
        }
        return .answered(status: Int(result.status), retryAfter: result.retry_after >= 0 ? Int(result.retry_after) : nil)
    }
}
