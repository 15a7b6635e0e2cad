import CListFetch
import CryptoCore
import Foundation
import Logging
import Mdoc
import MdocModel
import Verifier
import NIOConcurrencyHelpers
import RevocationFetch
import ServiceLifecycle

/// The signing secret of the webhook (Standard Webhooks): `whsec_` and the base64 of 24 to 64 random bytes, read from
/// the file `webhookSecretFile` names. Never in logs or descriptions.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    let bytes: [UInt8]

    /// The prefix Standard Webhooks secrets carry.
    public static let prefix = "whsec_"

    /// Parses `text` (`whsec_` + base64 of 24 to 64 bytes; surrounding white space ignored).
    ///
    /// Throws `ConfigurationProblems` naming the expected form.
    public init(text: String) throws(ConfigurationProblems) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(trimmed.dropFirst(Self.prefix.count))),
              (24 ... 64).contains(bytes.count)
        else {
            throw ConfigurationProblems(["webhookSecretFile must hold whsec_ and the base64 of 24 to 64 random bytes "
                + "(`echo whsec_$(openssl rand -base64 32) > FILE`)"])
        }
        self.bytes = [UInt8](bytes)
    }

    /// Reads the secret from the file at `path` (at most 1 KiB).
    public init(contentsOfFile path: String) throws(ConfigurationProblems) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ConfigurationProblems(["webhookSecretFile \(path) cannot be read"]) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1025), data.count <= 1024 else {
            throw ConfigurationProblems(["webhookSecretFile \(path) is longer than 1024 bytes; it must hold the secret alone"])
        }
        try self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// "WebhookSecret(redacted)".
    public var description: String { "WebhookSecret(redacted)" }
    /// No children: `dump` and reflection never show the secret.
    public var customMirror: Mirror { Mirror(self, children: []) }

    /// `v1,` and the base64 of HMAC-SHA256 over `id.timestamp.body`, as Standard Webhooks signs a message.
    func signature(id: String, timestamp: Int, body: [UInt8]) -> String {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(HMAC.authenticate(.sha256, key: bytes, data: signed)).base64EncodedString()
    }
}

/// Posts a signed event for each answered transaction to the configured URL (Standard Webhooks: `webhook-id`,
/// `webhook-timestamp`, `webhook-signature`), retrying with backoff until a 2xx answer, a 410 (the receiver wants no
/// more) or the last attempt. The body is thin — `{type, timestamp, data: {requestId, status}}` — and carries the
/// report only with `webhookIncludeReport`. The URL comes from the configuration only, and is reached only at public
/// addresses unless `webhookAllow` names it (as the revocation fetcher's destination policy). Deliveries wait in
/// memory: a restart drops the ones not yet made, which the backend still reads by polling.
final class WebhookSender: Sendable {
    /// One event to deliver.
    struct Delivery: Sendable {
        let id: String
        let body: [UInt8]
        let requestId: String
    }

    let url: String
    let secret: WebhookSecret
    let includeReport: Bool
    let allow: [FetchDestination]
    let timeout: Duration
    let logger: Logger
    /// How a retry waits (tests pass one that returns at once).
    let wait: @Sendable (Duration) async throws -> Void
    /// The waits before the second, third, … attempt (each varied by up to a tenth); then the delivery is given up.
    static let backoff: [Duration] = [.seconds(5), .seconds(300), .seconds(1800), .seconds(7200), .seconds(18000)]

    private let queue: AsyncStream<Delivery>
    private let continuation: AsyncStream<Delivery>.Continuation

    init(url: String, secret: WebhookSecret, includeReport: Bool, allow: [FetchDestination], timeout: Duration = .seconds(15),
         logger: Logger, wait: (@Sendable (Duration) async throws -> Void)? = nil) {
        self.url = url
        self.secret = secret
        self.includeReport = includeReport
        self.allow = allow
        self.timeout = timeout
        self.logger = logger
        self.wait = wait ?? { try await Task.sleep(for: $0) }
        (queue, continuation) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Queues the event of an answered transaction (`status` verified or rejected; `report` the report's JSON text).
    func transactionAnswered(requestId: String, status: String, report: String, at time: Date) {
        var data = JSONValue.object([("requestId", .string(requestId)), ("status", .string(status))]).serializedBytes()
        if includeReport, data.last == UInt8(ascii: "}") {
            data = Array(data.dropLast()) + Array(#","report":"#.utf8) + Array(report.utf8) + [UInt8(ascii: "}")]
        }
        let head = JSONValue.object([("type", .string("transaction.\(status)")), ("timestamp", .string(RFC3339.format(time)))])
            .serializedBytes()
        let body = Array(head.dropLast()) + Array(#","data":"#.utf8) + data + [UInt8(ascii: "}")]
        continuation.yield(Delivery(id: "msg_\(requestId)", body: body, requestId: requestId))
    }

    /// Delivers queued events until `finish()` or cancellation; each delivery retries on its own.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await delivery in queue {
                group.addTask { await self.deliver(delivery) }
            }
        }
    }

    /// Stops taking events; deliveries under way are cancelled by the caller's task group.
    func finish() { continuation.finish() }

    /// What one attempt came to.
    enum Attempt: Equatable {
        case delivered(Int)
        /// 410: the receiver asks for no more.
        case gone
        /// The destination is not allowed: retrying cannot help.
        case refused(String)
        /// No answer, or an answer other than 2xx or 410; retry after the backoff (or the receiver's Retry-After).
        case failed(String, retryAfter: Int?)
    }

    /// Every attempt of one delivery; the same `webhook-id` each time, a fresh timestamp and signature.
    func deliver(_ delivery: Delivery) async {
        var retryAfter: Int?
        for attempt in 0 ... Self.backoff.count {
            if attempt > 0 {
                var delay = Self.jittered(Self.backoff[attempt - 1])
                // The receiver's Retry-After, when longer than the backoff (at most a day).
                if let retryAfter { delay = max(delay, .seconds(min(retryAfter, 86_400))) }
                do { try await wait(delay) } catch { return }
            }
            let outcome = await post(delivery)
            let metadata: Logger.Metadata = ["requestId": "\(delivery.requestId)", "attempt": "\(attempt + 1)"]
            switch outcome {
            case .delivered(let status):
                logger.info("webhook delivered", metadata: metadata.merging(["status": "\(status)"]) { $1 })
                return
            case .gone:
                logger.warning("webhook receiver answered 410: not retried", metadata: metadata)
                return
            case .refused(let why):
                logger.error("webhook destination refused (allow it with webhookAllow)", metadata: metadata.merging(["reason": "\(why)"]) { $1 })
                return
            case .failed(let why, let after):
                logger.warning("webhook delivery failed", metadata: metadata.merging(["reason": "\(why)"]) { $1 })
                retryAfter = after
            }
        }
        logger.error("webhook delivery given up after \(Self.backoff.count + 1) attempts", metadata: ["requestId": "\(delivery.requestId)"])
    }

    private static func jittered(_ delay: Duration) -> Duration {
        delay + delay * Double.random(in: 0 ... 0.1)
    }

    /// One POST, on a thread of its own (libcurl's easy interface blocks).
    func post(_ delivery: Delivery) async -> Attempt {
        let timestamp = Int(Date().timeIntervalSince1970)
        let headers = [
            "Content-Type: application/json", "webhook-id: \(delivery.id)", "webhook-timestamp: \(timestamp)",
            "webhook-signature: \(secret.signature(id: delivery.id, timestamp: timestamp, body: delivery.body))",
        ]
        let (url, allow, timeout) = (self.url, self.allow, self.timeout)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.perform(url: url, headers: headers, body: delivery.body, allow: allow, timeout: timeout)) }
                .start()
        }
    }

    private static func perform(url: String, headers: [String], body: [UInt8], allow: [FetchDestination], timeout: Duration) -> Attempt {
        let host = URL(string: url)?.host?.lowercased() ?? ""
        let networks = allow.compactMap { WebhookNetwork.parse($0.description) }
        let hostAllowed = allow.contains { $0.host == host }
        var result = list_post_result()
        let milliseconds = max(1, Int(timeout.components.seconds * 1000))
        let started = networks.withUnsafeBufferPointer { buffer -> Int32 in
            var policy = list_fetch_policy(networks: buffer.baseAddress, network_count: buffer.count, allow_any_address: hostAllowed ? 1 : 0)
            let lines = headers.map { strdup($0) }
            defer { lines.forEach { free($0) } }
            let pointers = lines.map { UnsafePointer($0) }
            return pointers.withUnsafeBufferPointer { headerBuffer in
                body.withUnsafeBufferPointer { bodyBuffer in
                    list_post(url, headerBuffer.baseAddress, headerBuffer.count, bodyBuffer.baseAddress, bodyBuffer.count,
                              milliseconds, &policy, &result)
                }
            }
        }
        guard started == 0 else { return .failed("libcurl could not start a transfer", retryAfter: nil) }
        if result.refused_destination != 0 {
            let address = withUnsafeBytes(of: result.refused_address) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .refused("\(host) resolved to \(address), which is not a public address")
        }
        guard result.ok != 0 else {
            let message = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failed(result.timed_out != 0 ? "no answer in time" : message, retryAfter: nil)
        }
        let status = Int(result.status)
        if (200 ..< 300).contains(status) { return .delivered(status) }
        if status == 410 { return .gone }
        return .failed("HTTP \(status)", retryAfter: result.retry_after >= 0 ? Int(result.retry_after) : nil)
    }
}

/// Runs the webhook deliveries while the server runs; graceful shutdown stops them (pending retries are dropped).
struct WebhookService: Service {
    let sender: WebhookSender

    func run() async throws {
        await withGracefulShutdownHandler {
            await sender.run()
        } onGracefulShutdown: {
            sender.finish()
        }
    }
}

/// An allow entry's network as the C policy takes it (FetchDestination keeps its own internal).
enum WebhookNetwork {
    static func parse(_ text: String) -> list_fetch_network? {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let addressText = parts.first else { return nil }
        var network = list_fetch_network()
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, addressText, &bytes) == 1 {
            network.family = 4
        } else if inet_pton(AF_INET6, addressText, &bytes) == 1 {
            network.family = 6
        } else {
            return nil
        }
        let maximum = network.family == 4 ? 32 : 128
        network.prefix = Int32(parts.count == 2 ? Int(parts[1]) ?? maximum : maximum)
        withUnsafeMutableBytes(of: &network.address) { raw in
            for index in 0 ..< 16 { raw[index] = bytes[index] }
        }
        return network
    }
}

extension ServerConfiguration {
    /// The webhook settings' problems: a URL without a secret or the reverse, a URL that is not https (http only in
    /// test mode), an allow entry that is neither a host name nor an address or network.
    var webhookProblems: [String] {
        var problems: [String] = []
        if let webhookURL {
            let url = URL(string: webhookURL)
            let scheme = url?.scheme?.lowercased()
            if url?.host?.isEmpty != false || !(scheme == "https" || (scheme == "http" && testMode)) {
                problems.append("webhookURL must be an https URL (http only in test mode)")
            }
            if webhookSecret == nil { problems.append("webhookURL needs webhookSecretFile (the signing secret)") }
        } else if webhookSecret != nil {
            problems.append("webhookSecretFile is set without webhookURL")
        }
        for entry in webhookAllow where FetchDestination(entry) == nil {
            problems.append("webhookAllow entry \(InputQuote.short(entry)) is neither a host name nor an address or CIDR network")
        }
        return problems
    }

    /// The sender for these settings, or nil without `webhookURL`.
    func webhookSender(logger: Logger, wait: (@Sendable (Duration) async throws -> Void)?) -> WebhookSender? {
        guard let webhookURL, let webhookSecret else { return nil }
        return WebhookSender(url: webhookURL, secret: webhookSecret, includeReport: webhookIncludeReport,
                             allow: webhookAllow.compactMap(FetchDestination.init), logger: logger, wait: wait)
    }
}
