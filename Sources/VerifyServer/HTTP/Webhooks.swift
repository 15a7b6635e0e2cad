import CBOR
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

    /// The secrets of the file at `path`, one a line (at most four, the file at most 1 KiB): every delivery is signed
    /// with each, so a receiver can move to a new secret while the old one still verifies.
    public static func all(contentsOfFile path: String) throws(ConfigurationProblems) -> [WebhookSecret] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ConfigurationProblems(["webhookSecretFile \(path) cannot be read"]) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1025), data.count <= 1024 else {
            throw ConfigurationProblems(["webhookSecretFile \(path) is longer than 1024 bytes; it must hold at most four secrets, one a line"])
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard (1 ... 4).contains(lines.count) else {
            throw ConfigurationProblems(["webhookSecretFile \(path) must hold one to four secrets, one a line (it holds \(lines.count))"])
        }
        var secrets: [WebhookSecret] = []
        for line in lines { secrets.append(try WebhookSecret(text: line)) }
        return secrets
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

/// Delivers the webhook events of the request store's outbox to the configured URL (Standard Webhooks: `webhook-id`,
/// `webhook-timestamp`, `webhook-signature`). An event joins the outbox with its transaction's result, in the same
/// atomic step; every instance sharing the store runs a sender, and an event is leased by one of them at a time. It
/// leaves the outbox on a 2xx answer, a 410 (the receiver wants no more), a refused destination or the last attempt;
/// otherwise it is due again after the backoff (or the receiver's longer Retry-After). So a restart, a crash or
/// another instance delivers what one instance did not: at least once, with the same `webhook-id` every time.
///
/// The body is thin — `{type, timestamp, data: {requestId, status}}` — and carries the report only with
/// `webhookIncludeReport`. The URL comes from the configuration only, and is reached only at public addresses unless
/// `webhookAllow` names it (as the revocation fetcher's destination policy). Nothing waits in memory: a graceful
/// shutdown stops at once between attempts, and an attempt cut short leaves its event leased until the lease ends.
final class WebhookSender: Sendable {
    let url: String
    /// The signing secrets in use now (they change on SIGHUP).
    let secrets: @Sendable () -> [WebhookSecret]
    let includeReport: Bool
    let allow: [FetchDestination]
    /// CA certificates an https receiver may also chain to (`outboundCAFile`).
    let caFile: String?
    let timeout: Duration
    let store: any RequestStore
    let clock: ServerClock
    let metrics: ServerMetrics?
    let logger: Logger
    /// The waits before the second, third, … attempt (each varied by up to a tenth); then the event is given up.
    let backoff: [Duration]
    /// How often the outbox is looked at for events that became due (or that another instance queued).
    let pollInterval: Duration

    /// Five retries after 5 s, 5 min, 30 min, 2 h and 5 h.
    static let defaultBackoff: [Duration] = [.seconds(5), .seconds(300), .seconds(1800), .seconds(7200), .seconds(18000)]
    /// Events leased per pass.
    static let batch = 16

    private struct State {
        var poked = false
        var stopping = false
        /// When the backlog gauges were last refreshed, and whether the outbox changed since.
        var backlogMeasured: ContinuousClock.Instant?
        var backlogStale = true
    }

    /// How often the sender refreshes the backlog gauges from the store when nothing happened here (another instance
    /// may have queued or delivered); a scrape of `/metrics` never queries the store.
    static let backlogInterval: Duration = .seconds(15)
    private let state = NIOLockedValueBox(State())

    init(url: String, secrets: @escaping @Sendable () -> [WebhookSecret], includeReport: Bool, allow: [FetchDestination], caFile: String? = nil,
         store: any RequestStore,
         clock: ServerClock = .system, metrics: ServerMetrics? = nil, timeout: Duration = .seconds(15), logger: Logger,
         backoff: [Duration]? = nil, pollInterval: Duration = .seconds(1)) {
        self.url = url
        self.secrets = secrets
        self.includeReport = includeReport
        self.allow = allow
        self.caFile = caFile
        self.store = store
        self.clock = clock
        self.metrics = metrics
        self.timeout = timeout
        self.logger = logger
        self.backoff = backoff ?? Self.defaultBackoff
        self.pollInterval = pollInterval
    }

    /// How long an attempt holds its event: the POST's whole time limit and a margin.
    var lease: Duration { timeout + .seconds(30) }

    /// How long an event may stay in the outbox: the whole retry schedule (each wait at its longest jitter, each
    /// attempt at its lease) and an hour; the purger deletes older ones, attempted or not.
    var retention: TimeInterval {
        backoff.reduce(0) { $0 + $1.seconds * 1.1 } + Double(backoff.count + 1) * lease.seconds + 3600
    }

    /// The event announcing an answered transaction (`status` verified or rejected; `report` the report's JSON text),
    /// for the store to queue with the result.
    func event(requestId: String, status: String, report: String, at time: Date) -> WebhookEvent {
        var data = JSONValue.object([("requestId", .string(requestId)), ("status", .string(status))]).serializedBytes()
        if includeReport, data.last == UInt8(ascii: "}") {
            data = Array(data.dropLast()) + Array(#","report":"#.utf8) + Array(report.utf8) + [UInt8(ascii: "}")]
        }
        let head = JSONValue.object([("type", .string("transaction.\(status)")), ("timestamp", .string(RFC3339.format(time)))])
            .serializedBytes()
        let body = Array(head.dropLast()) + Array(#","data":"#.utf8) + data + [UInt8(ascii: "}")]
        return WebhookEvent(id: "msg_\(requestId)", requestId: requestId, body: String(decoding: body, as: UTF8.self), createdAt: time)
    }

    /// An event was just queued here: look at the outbox now instead of at the next poll.
    func poke() {
        state.withLockedValue { state in
            state.poked = true
            state.backlogStale = true
        }
    }

    /// Stops leasing events; attempts under way finish (or are cancelled with the task running `run()`).
    func stop() { state.withLockedValue { $0.stopping = true } }

    private var stopping: Bool { state.withLockedValue { $0.stopping } }

    /// Leases due events and attempts them, until `stop()` or cancellation.
    func run() async {
        while !stopping, !Task.isCancelled {
            let now = clock.now()
            await measureBacklog(now: now)
            let due: [WebhookEvent]
            do {
                due = try await store.claimWebhooks(now: now, leaseUntil: now.addingTimeInterval(lease.seconds), limit: Self.batch)
            } catch {
                logger.warning("webhook outbox unreadable; retried at the next poll", metadata: ["error": "\(TerminalText.escaped("\(error)"))"])
                due = []
            }
            guard !due.isEmpty else {
                await idle()
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for event in due { group.addTask { await self.attempt(event) } }
            }
            state.withLockedValue { $0.backlogStale = true }
        }
    }

    /// Refreshes the backlog gauges after a pass that attempted events, after an event was queued here, and otherwise
    /// every `backlogInterval`; a store that does not answer leaves
    /// them as they were.
    private func measureBacklog(now: Date) async {
        guard let metrics else { return }
        let instant = ContinuousClock.now
        let due = state.withLockedValue { state -> Bool in
            guard state.backlogStale || state.backlogMeasured.map({ instant - $0 >= Self.backlogInterval }) ?? true else { return false }
            state.backlogMeasured = instant
            state.backlogStale = false
            return true
        }
        if due, let backlog = try? await store.webhookBacklog() { metrics.webhookBacklog(backlog, now: now) }
    }

    /// Waits for `pollInterval`, or less when an event was queued here, the sender stops or its task is cancelled.
    private func idle() async {
        let slices = 10
        for _ in 0 ..< slices {
            let wake = state.withLockedValue { state in
                defer { state.poked = false }
                return state.poked || state.stopping
            }
            if wake { return }
            do { try await Task.sleep(for: pollInterval / slices) } catch { return }
        }
    }

    /// One attempt of a leased event, then its settlement: removed, rescheduled, or (cut short) left to its lease.
    func attempt(_ event: WebhookEvent) async {
        // An event the store could not open (the state key changed) is a failed attempt: retried on the schedule, in
        // case the key comes back, then given up; never a stall of the outbox.
        let outcome = if let why = event.unreadable {
            Attempt.failed(why, retryAfter: nil)
        } else if let own = event.url, !Self.allowListed(own, allow: allow) {
            // The operator took the transaction's host out of webhookAllow since the event was queued.
            Attempt.refused("the transaction's webhookURL host is no longer in webhookAllow")
        } else {
            await post(event)
        }
        let attempts = event.attempts + 1
        let metadata: Logger.Metadata = ["requestId": "\(event.requestId)", "attempt": "\(attempts)"]
        var retryAt: Date?
        var label: String
        switch outcome {
        case .delivered(let status):
            logger.info("webhook delivered", metadata: metadata.merging(["status": "\(status)"]) { $1 })
            label = "delivered"
        case .gone:
            logger.warning("webhook receiver answered 410: not retried", metadata: metadata)
            label = "gone"
        case .refused(let why):
            logger.error("webhook destination refused (allow it with webhookAllow)", metadata: metadata.merging(["reason": "\(why)"]) { $1 })
            label = "refused"
        case .interrupted:
            // Shutting down: the event stays leased, and is attempted again once the lease ends (here or elsewhere).
            metrics?.webhookAttempt("interrupted")
            return
        case .failed(let why, let after):
            if attempts > backoff.count {
                logger.error("webhook delivery given up after \(attempts) attempts", metadata: metadata.merging(["reason": "\(why)"]) { $1 })
                label = "given_up"
            } else {
                var delay = Self.jittered(backoff[attempts - 1])
                // The receiver's Retry-After, when longer than the backoff (at most a day).
                if let after { delay = max(delay, .seconds(min(after, 86_400))) }
                logger.warning("webhook delivery failed; retried later", metadata: metadata.merging(["reason": "\(why)", "retryIn": "\(delay)"]) { $1 })
                retryAt = clock.now().addingTimeInterval(delay.seconds)
                label = "failed"
            }
        }
        metrics?.webhookAttempt(label)
        do {
            try await store.settleWebhook(id: event.id, attempts: attempts, retryAt: retryAt)
        } catch {
            logger.error("webhook outbox not updated; the event is attempted again when its lease ends",
                         metadata: metadata.merging(["error": "\(TerminalText.escaped("\(error)"))"]) { $1 })
        }
    }

    private static func jittered(_ delay: Duration) -> Duration {
        delay + delay * Double.random(in: 0 ... 0.1)
    }

    /// What one attempt came to.
    enum Attempt: Equatable {
        case delivered(Int)
        /// 410: the receiver asks for no more.
        case gone
        /// The destination is not allowed: retrying cannot help.
        case refused(String)
        /// No answer, or an answer other than 2xx or 410; retry after the backoff (or the receiver's Retry-After).
        case failed(String, retryAfter: Int?)
        /// The task was cancelled (shutdown's grace ran out) before the receiver answered.
        case interrupted
    }

    /// One POST with a fresh timestamp and signature, on a thread of its own (libcurl's easy interface blocks); a
    /// cancelled caller stops waiting for it at once (the thread ends within `timeout`).
    func post(_ event: WebhookEvent) async -> Attempt {
        let timestamp = Int(clock.now().timeIntervalSince1970)
        let body = Array(event.body.utf8)
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("webhook-id", event.id), ("webhook-timestamp", "\(timestamp)"),
            // One signature per secret, space-separated, as Standard Webhooks allows while a secret is rotated.
            ("webhook-signature", secrets().map { $0.signature(id: event.id, timestamp: timestamp, body: body) }.joined(separator: " ")),
        ]
        let (url, allow, timeout, caFile) = (event.url ?? self.url, self.allow, self.timeout, self.caFile)
        let answer = OneAnswer<Attempt>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(continuation)
                Thread { answer.give(Self.perform(url: url, headers: headers, body: body, allow: allow, timeout: timeout, caFile: caFile)) }.start()
            }
        } onCancel: {
            answer.give(.interrupted)
        }
    }

    private static func perform(url: String, headers: [(name: String, value: String)], body: [UInt8], allow: [FetchDestination],
                                timeout: Duration, caFile: String?) -> Attempt {
        var request = OutboundHTTP.Request(url, method: "POST", timeout: timeout, maxBytes: 65_536)
        (request.headers, request.body, request.discardBody, request.userAgent) = (headers, body, true, "WalletVerifier webhook")
        switch OutboundHTTP.perform(request, policy: OutboundPolicy(allow: allow, caFile: caFile)) {
        case let .refused(host, address): return .refused("\(host) resolved to \(address), which is not a public address")
        case .failed(let why, _): return .failed(why, retryAfter: nil)
        case .tooLarge: return .failed("the answer is too large", retryAfter: nil)
        case .answered(let answer):
            if (200 ..< 300).contains(answer.status) { return .delivered(answer.status) }
            if answer.status == 410 { return .gone }
            // Retry-After in whole seconds; the HTTP-date form is ignored.
            return .failed("HTTP \(answer.status)", retryAfter: answer.retryAfter.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil })
        }
    }
}

/// Runs the webhook deliveries while the server runs; graceful shutdown stops them between attempts (what is not
/// delivered stays in the outbox).
struct WebhookService: Service {
    let sender: WebhookSender

    func run() async throws {
        await withGracefulShutdownHandler {
            await sender.run()
        } onGracefulShutdown: {
            sender.stop()
        }
    }
}

/// The first answer given wins: a continuation resumed once, by the worker thread or by cancellation, whichever
/// comes first (either may come before the continuation is there).
final class OneAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var value: Value?
        var resumed = false
    }
    private let state = NIOLockedValueBox(State())

    func wait(_ continuation: CheckedContinuation<Value, Never>) {
        let ready: Value? = state.withLockedValue { state in
            guard let value = state.value, !state.resumed else {
                state.continuation = continuation
                return nil
            }
            state.resumed = true
            return value
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func give(_ value: Value) {
        let waiting: CheckedContinuation<Value, Never>? = state.withLockedValue { state in
            guard !state.resumed, state.value == nil else { return nil }
            state.value = value
            guard let continuation = state.continuation else { return nil }
            state.resumed = true
            return continuation
        }
        waiting?.resume(returning: value)
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
            if webhookSecrets.isEmpty { problems.append("webhookURL needs webhookSecretFile (the signing secret)") }
        } else if !webhookSecrets.isEmpty {
            problems.append("webhookSecretFile is set without webhookURL")
        }
        for entry in webhookAllow where FetchDestination(entry) == nil {
            problems.append("webhookAllow entry \(InputQuote.short(entry)) is neither a host name nor an address or CIDR network")
        }
        return problems
    }

    /// The sender for these settings, or nil without `webhookURL`; it signs with the secrets `credentials` holds.
    func webhookSender(credentials: Credentials, store: any RequestStore, clock: ServerClock, metrics: ServerMetrics, logger: Logger,
                       backoff: [Duration]?) -> WebhookSender? {
        guard let webhookURL, !webhookSecrets.isEmpty else { return nil }
        return WebhookSender(url: webhookURL, secrets: { credentials.webhookSecrets }, includeReport: webhookIncludeReport,
                             allow: webhookAllow.compactMap(FetchDestination.init), caFile: outboundCAFile, store: store, clock: clock,
                             metrics: metrics, logger: logger, backoff: backoff)
    }
}
