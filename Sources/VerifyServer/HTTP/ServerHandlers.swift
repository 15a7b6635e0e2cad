import CBOR
import CryptoCore
import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import RevocationFetch
import Verifier

/// Test-only hooks into request handling.
public struct ServerHooks: Sendable {
    /// Runs after a request was consumed and before its response is verified (e.g. to hold a request in flight).
    public var beforeVerification: (@Sendable () async -> Void)?
    /// How a store operation waits for its `storeTimeout` to pass (nil, the default: an event-loop timer).
    ///
    /// Tests pass a deadline that has already passed, so a stalled store times out at once instead of after wall-clock
    /// time.
    public var storeDeadline: (@Sendable (Duration) async throws -> Void)?
    /// How reading a request body waits for its `bodyTimeout` to pass (nil, the default: an event-loop timer).
    public var bodyDeadline: (@Sendable (Duration) async throws -> Void)?
    /// How the VICAL and LoTE refresh waits between downloads (nil, the default: `Task.sleep`); tests drive the loop with it.
    public var vicalRefreshWait: (@Sendable (Duration) async throws -> Void)?
    /// The waits between webhook attempts (nil, the default: 5 s, 5 min, 30 min, 2 h, 5 h); tests pass zeros.
    public var webhookBackoff: [Duration]?

    /// Creates hooks; by default nothing runs before verification and both time limits are event-loop timers.
    public init(beforeVerification: (@Sendable () async -> Void)? = nil,
                storeDeadline: (@Sendable (Duration) async throws -> Void)? = nil,
                bodyDeadline: (@Sendable (Duration) async throws -> Void)? = nil,
                vicalRefreshWait: (@Sendable (Duration) async throws -> Void)? = nil,
                webhookBackoff: [Duration]? = nil) {
        self.beforeVerification = beforeVerification
        self.storeDeadline = storeDeadline
        self.bodyDeadline = bodyDeadline
        self.vicalRefreshWait = vicalRefreshWait
        self.webhookBackoff = webhookBackoff
    }
}

/// The route handlers and what they share. Handlers never throw: every failure becomes a JSON answer.
struct ServerHandlers: Sendable {
    let configuration: ServerConfiguration
    /// The current runtime (keys, trust, formats); swapped whole on reload.
    let runtimes: RuntimeBox
    let store: any RequestStore
    /// The requests created and neither consumed nor expired, for the per-client and total caps.
    let outstanding: OutstandingRequests
    let metrics: ServerMetrics
    let clock: ServerClock
    let hooks: ServerHooks
    let logger: Logger
    /// The API keys and webhook secrets in use (SIGHUP re-reads them).
    let credentials: Credentials
    /// Posts an event per answered transaction (nil without `webhookURL`).
    var webhooks: WebhookSender?
    /// The port the listener bound (test mode's wallet URLs name it).
    var listening: ListeningPort?
    /// The store's last ping, which `/readyz` reports.
    var health: StoreHealth?
    /// The routes this copy of the handlers serves, and whether `/readyz` says more than its status.
    var role = ListenerRole.shared

    /// The base of the wallet-facing URLs (`ServerConfiguration.walletURL(boundPort:)`).
    var walletURL: String? { configuration.walletURL(boundPort: listening?.port) }

    var bodies: BodyReader {
        BodyReader(limit: configuration.bodyLimit, timeout: configuration.bodyTimeout, timeLimit: TimeLimit(wait: hooks.bodyDeadline))
    }

    func respond(_ endpoint: Endpoint, to request: Request, context: ServerRequestContext) async -> Response {
        switch endpoint {
        case .createRequest, .verify:
            guard configuration.legacyAPI.serves else { return APIError.legacyOff.response }
            return endpoint == .verify ? await verify(request) : await createRequest(request, client: context.client)
        case .healthz: return Response.json(.ok, .object([("status", .string("ok"))]))
        case .healthzHead: return Response(status: .ok)
        case .readyz: return await readiness()
        case .readyzHead: return Response(status: await readiness().status)
        case .metrics:
            let runtime = runtimes.current
            metrics.trust(runtime, now: clock.now(), refreshes: runtimes.listRefreshes)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        case .operatorRevocation: return operatorRevocation(request)
        case .inspect: return await inspect(request)
        case .inspectorPage, .inspectorScript, .inspectorStyle: return inspectorFile(endpoint)
        case .createTransaction: return await createTransaction(request, client: context.client)
        case .transactionStatus: return await transactionStatus(request, id: context.parameters.get("requestId"), client: context.client)
        case .walletResponse: return await walletResponse(request, id: context.parameters.get("requestId"))
        case .walletRequestObject, .walletRequestObjectPost:
            return await walletRequestObject(request, id: context.parameters.get("requestId"), posted: endpoint == .walletRequestObjectPost)
        case .walletDirectPost: return await walletDirectPost(request, id: context.parameters.get("requestId"))
        case .walletPreflight:
            // An ID no request can have is refused as the POST would refuse it.
            guard let id = context.parameters.get("requestId"), !id.isEmpty, id.unicodeScalars.count <= 128 else {
                return Response(status: .notFound)
            }
            return CrossOrigin(configuration: configuration, apiKeys: credentials.apiKeys).preflight(request)
        case .demoPage, .demoScript, .demoCreate, .demoStatus, .demoQRCode:
            return await demo(endpoint, request: request, id: context.parameters.get("requestId"), client: context.client)
        }
    }

    /// `GET /readyz`: the store answers, at least one format is offered, the trust store is not empty; says whether
    /// test mode is on. Never waits on the store: its state is the monitor's last ping (`StoreHealth`), with its age.
    func readiness() async -> Response {
        let now = clock.now()
        let (check, storeReachable) = health?.state(at: now) ?? (nil, false)
        let runtime = runtimes.current
        // Apple's keys are optional (without them apple-app is not offered): a server without any format is not ready.
        let ready = storeReachable && !runtime.flows.isEmpty && !runtime.trustStore.isEmpty
        let status: (String, JSONValue) = ("status", .string(ready ? "ready" : "not_ready"))
        // Beside a private operator listener the public answer is the status alone: what is loaded is the operator's.
        guard role != .public else { return Response.json(ready ? .ok : .serviceUnavailable, .object([status])) }
        return Response.json(ready ? .ok : .serviceUnavailable, .object([
            status,
            ("testMode", .bool(configuration.testMode)),
            ("assurance", .string(configuration.testMode ? "test" : "production")),
            ("store", .object([
                ("kind", .string(store.kind)), ("reachable", .bool(storeReachable)),
                ("checkedAt", check.map { .string(RFC3339.format($0.at)) } ?? .null),
                ("checkAgeSeconds", check.map { .number(String(format: "%.3f", max(0, now.timeIntervalSince($0.at)))) } ?? .null),
            ])),
            ("decryptionKeys", .int(runtime.keyCount)),
            ("trustAnchors", .int(runtime.trustStore.anchors.count)),
            ("formats", .array(runtime.formats.descriptors.filter {
                runtime.flows[$0.format] != nil && (!$0.wire.byReference || walletURL != nil)
            }.map { .string($0.format.rawValue) })),
            ("readerAuthentication", .bool(runtime.readerIdentity != nil)),
            ("revocation", revocationReadiness(runtime)),
            ("vicals", runtimes.vicalReadiness(runtime)),
            ("lotes", runtimes.loteReadiness(runtime)),
            ("untrustedLists", .array(runtime.pendingLists.map { pending in
                .object([("kind", .string(pending.list.kind)), ("source", .string(pending.list.name)), ("reason", .string(pending.category))])
            })),
            ("trustReloadError", runtimes.lastReloadError.map(JSONValue.string) ?? .null),
        ]))
    }

    /// The policy, whether lists are fetched, and how many fetched lists are in each state: an unreachable list is
    /// reported, not a reason to stop serving (verifications then say the status is unknown). The URIs themselves say
    /// whose documents were just verified, so they are listed only on the operator endpoint.
    private func revocationReadiness(_ runtime: VerifierRuntime) -> JSONValue {
        let lists = runtime.fetcher?.lists() ?? []
        let states = ["fresh", "stale", "unreachable"]
        return .object([
            ("policy", .string(configuration.revocation.rawValue)),
            ("fetch", .bool(runtime.fetcher != nil)),
            ("crlDistributionPoints", .bool(runtime.fetcher?.settings.crlDistributionPoints ?? false)),
            ("lists", .object(states.map { state in (state, .int(UInt64(lists.filter { $0.state == state }.count))) })),
        ])
    }

    /// `GET /v1/operator/revocation`: every fetched list with its state and failure category, for the operator only
    /// (a bearer token from `operatorTokenFile`, compared in constant time). 401 without the right one — and for every
    /// request when no token is configured, since then no token is right.
    func operatorRevocation(_ request: Request) -> Response {
        let token = configuration.operatorTokenFile
            .flatMap { FileManager.default.contents(atPath: $0) }
            .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let presented = request.headers[.authorization].flatMap(APIKeyAuthenticator.bearerToken) ?? ""
        guard !token.isEmpty, constantTimeEquals(Array(presented.utf8), Array(token.utf8)) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }
        let lists = runtimes.current.fetcher?.lists() ?? []
        return Response.json(.ok, .object([
            ("lists", .array(lists.map { list in
                .object([
                    ("kind", .string(list.key.kind.rawValue)),
                    ("uri", .string(list.key.uri)),
                    ("state", .string(list.state)),
                    ("fetchedAt", list.fetchedAt.map { .string(RFC3339.format($0)) } ?? .null),
                    ("freshUntil", list.freshUntil.map { .string(RFC3339.format($0)) } ?? .null),
                    ("error", list.error.map(JSONValue.string) ?? .null),
                ])
            })),
        ]))
    }
}

extension ServerHandlers {
    /// The formats the running runtime serves: every route asks these, never a built-in list.
    var formats: FormatRegistry { runtimes.current.formats }

    /// The descriptor of `format` among `formats`; nil for a format this server does not know.
    func descriptor(_ format: VerificationReport.Format) -> FormatDescriptor? { formats.descriptor(format) }

    /// What the store's `operation` returns, or 503 after logging "request store `name` failed" with `metadata`.
    func fromStore<T>(_ name: String, _ metadata: Logger.Metadata = [:], _ operation: () async throws -> T) async throws(APIError) -> T {
        do {
            return try await operation()
        } catch {
            var metadata = metadata
            metadata["error"] = "\(TerminalText.escaped("\(error)"))"
            logger.error("request store \(name) failed", metadata: metadata)
            throw APIError.storeUnavailable
        }
    }
}
