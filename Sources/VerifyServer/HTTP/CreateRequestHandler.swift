import CBOR
import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import Verifier
import VerifyServerAPI

/// Ceilings of `POST /v1/requests` beyond the body limit: they bound what one request stores.
enum CreateRequestLimits {
    /// The most bytes a request's documents (its policy) may take as stored: JSON with sorted keys.
    static let maxPolicyBytes = 16_384
    /// The longest `origin`, in bytes (a serialized web origin: scheme, a host name of at most 253 bytes, a port).
    static let maxOriginBytes = 1_024
}

extension ServerHandlers {
    /// `POST /v1/requests` from `client` (see `clientAddress(_:)`): stores the policy, the format's secret state and an
    /// expiry; answers 201. 413 over a `CreateRequestLimits` ceiling, 429 with `Retry-After` over an
    /// outstanding-request cap.
    func createRequest(_ request: Request, client: String) async -> Response {
        var retryAfter: Int?
        do throws(APIError) {
            let body = try await bodies.decode(CreateRequestBody.self, from: request)
            let (format, policy) = try validated(body)
            guard descriptor(format)?.wire.byReference != true else {
                throw APIError.malformed("\(format.rawValue) is answered by the wallet to this server itself: create it with POST /v1/transactions")
            }
            let (stored, prepared) = try await store(format: format, policy: policy, origin: body.origin, counted: .address(client),
                                                     binding: nil, retryAfter: &retryAfter)
            return Response.json(.created, .object(
                [("requestId", .string(stored.id))] + prepared.publicFields + [("expiresAt", .string(RFC3339.format(stored.expiresAt)))]))
        } catch {
            logger.info("request refused", metadata: ["status": "\(error.status.code)", "code": "\(error.code.rawValue)"])
            return error.response(retryAfter: retryAfter)
        }
    }

    /// Who a new request counts against: a client address (this instance's memory, `maxOutstandingRequestsPerClient`),
    /// or an API key (the store, across instances, `maxOutstandingRequestsPerKey`).
    enum Counted {
        case address(String)
        case apiKey(String)
    }

    /// Prepares and stores a request of `format` for `policy` and `origin`, counted against `counted`'s outstanding
    /// requests and this instance's total; `binding` makes it a transaction (the client secret's hash and the creating
    /// key's ID); `serverState` joins the format's state (a same-device redirect, a transaction's own webhook URL).
    /// Over a cap, `retryAfter` is set and the 429 thrown.
    func store(format: VerificationReport.Format, policy: RequestPolicy, origin: String?, counted: Counted,
               binding: (secretHash: String, keyID: String)?, serverState: ServerKeptState = ServerKeptState(),
               retryAfter: inout Int?) async throws(APIError) -> (StoredRequest, PreparedRequest) {
        guard let handler = runtimes.current.flows[format] else {
            throw APIError.malformed("format \(format.rawValue) is not supported by this server", code: .envelopeUnsupported)
        }
        let now = clock.now()
        let id = StoredRequest.newID()
        let expiresAt = now.addingTimeInterval(configuration.requestTTL)
        // Counted before the keys are made, so a refused client costs no key generation.
        if case .apiKey(let keyID) = counted, let refusal = try await admitKey(keyID, now: now) {
            retryAfter = refusal.retryAfter
            throw refusal.error
        }
        let client: String? = if case .address(let address) = counted { address } else { nil }
        if let refusal = admit(id: id, client: client, expiresAt: expiresAt, now: now) {
            retryAfter = refusal.retryAfter
            throw refusal.error
        }
        let creation = RequestCreation(origin: origin, walletURLs: try walletURLs(id, format: format), expiresAt: expiresAt)
        let prepared = try prepare(handler, policy: policy, creation: creation, serverState: serverState, releasing: id)
        let stored = StoredRequest(id: id, format: format, policy: policy, state: prepared.state, createdAt: now, expiresAt: expiresAt,
                                   clientSecretHash: binding?.secretHash, apiKeyID: binding?.keyID)
        try await insert(stored)
        metrics.requestCreated(format: format)
        var metadata: Logger.Metadata = [
            "requestId": "\(stored.id)", "format": "\(format.rawValue)", "expiresAt": "\(RFC3339.format(stored.expiresAt))",
        ]
        if let binding { metadata["keyId"] = "\(binding.keyID)" }
        logger.info(binding == nil ? "request created" : "transaction created", metadata: metadata)
        return (stored, prepared)
    }

    /// The body's format (one with a request flow) and policy, each within the `CreateRequestLimits` ceilings.
    func validated(_ body: CreateRequestBody) throws(APIError) -> (VerificationReport.Format, RequestPolicy) {
        let requestable = formats.descriptors.filter(\.hasRequestFlow).map(\.format)
        guard let format = formats.format(named: body.format), requestable.contains(format) else {
            throw APIError.malformed(
                           "format must be one of \(requestable.map(\.rawValue).joined(separator: ", "))")
        }
        let policy: RequestPolicy
        do {
            policy = try body.policy()
        } catch {
            throw APIError.malformed(error.message, code: error.code)
        }
        // The allow-list has its own bounds (`RequestPolicy.validateAllowedIssuers`), so only the documents count here.
        let policyBytes = (try? StoredRequestColumns.encode(policy: RequestPolicy(documents: policy.documents)).utf8.count) ?? Int.max
        guard policyBytes <= CreateRequestLimits.maxPolicyBytes else {
            throw APIError.tooLarge(
                "the documents take \(policyBytes) bytes as stored, over the \(CreateRequestLimits.maxPolicyBytes)-byte ceiling of "
                    + "a request; ask for fewer documents, namespaces or elements")
        }
        if let origin = body.origin, origin.utf8.count > CreateRequestLimits.maxOriginBytes {
            throw APIError.malformed(
                "origin is longer than a serialized web origin can be (\(CreateRequestLimits.maxOriginBytes) bytes; it has \(origin.utf8.count) bytes)")
        }
        return (format, policy)
    }

    /// Whether API key `keyID` may create one more transaction: its outstanding ones across every instance (the store)
    /// under `maxOutstandingRequestsPerKey`; over it, the 429 and its `Retry-After` seconds (until the first expires).
    /// Checked before the insert, so instances creating at the same moment may pass the cap by as many requests.
    private func admitKey(_ keyID: String, now: Date) async throws(APIError) -> (error: APIError, retryAfter: Int)? {
        let open = try await fromStore("count") { try await store.outstanding(apiKeyID: keyID, now: now) }
        let most = configuration.maxOutstandingRequestsPerKey
        guard open.count >= most else { return nil }
        // At most requestTTL: a store that keeps milliseconds may round the expiry a fraction past it.
        let wait = (open.earliestExpiry ?? now.addingTimeInterval(configuration.requestTTL)).timeIntervalSince(now)
        let seconds = max(1, Int(min(wait, configuration.requestTTL).rounded(.up)))
        metrics.limitRefused("outstanding_per_key")
        return (APIError.tooManyRequests("API key \(keyID) has \(most) transactions outstanding across the service "
            + "(maxOutstandingRequestsPerKey); let them be answered or expire, and retry after \(seconds) s"), seconds)
    }

    /// Counts request `id` against the outstanding-request caps (`client`'s, when counted by address); over one, the
    /// 429 and its `Retry-After` seconds.
    private func admit(id: String, client: String?, expiresAt: Date, now: Date) -> (error: APIError, retryAfter: Int)? {
        switch outstanding.admit(id: id, client: client, expiresAt: expiresAt, now: now) {
        case .admitted:
            return nil
        case .refused(let perClient, let seconds):
            metrics.limitRefused(perClient ? "outstanding_per_client" : "outstanding_total")
            return (APIError.tooManyRequests(perClient
                ? "this client has \(outstanding.maxPerClient) requests outstanding (maxOutstandingRequestsPerClient); "
                    + "verify or let some expire, and retry after \(seconds) s"
                : "the server has \(outstanding.maxTotal) requests outstanding (maxOutstandingRequests); retry after \(seconds) s"),
                    seconds)
        }
    }

    /// The format's secret state and public fields; a failure releases the admitted `id`.
    private func prepare(_ handler: any RequestFlow, policy: RequestPolicy, creation: RequestCreation, serverState: ServerKeptState,
                         releasing id: String) throws(APIError) -> PreparedRequest {
        do {
            var prepared = try handler.prepare(policy: policy, context: creation)
            prepared.state = prepared.state.merging(try KeptState(serverState))
            return prepared
        } catch {
            outstanding.release(id: id)
            throw APIError.malformed(error.message, code: error.code)
        }
    }

    /// The wallet-facing URLs of request `id` for a format answered by reference (`walletBaseURL`, or this listener in
    /// test mode); nil for the other formats.
    private func walletURLs(_ id: String, format: VerificationReport.Format) throws(APIError) -> WalletURLs? {
        guard descriptor(format)?.wire.byReference == true else { return nil }
        guard let base = walletURL else {
            throw APIError.malformed("this server has no walletBaseURL, the https URL wallets reach it at: set it to offer "
                + "\(format.rawValue)", code: .envelopeUnsupported)
        }
        return WalletURLs(request: base + "/v1/wallet/\(id)/request", response: base + "/v1/wallet/\(id)/direct_post")
    }

    /// A transaction's same-device `redirectUri`: only for a format answered by reference; an absolute https URL (http
    /// in test mode) without fragment or user information, at most 2,048 bytes, on one of `origins` (no open
    /// redirect).
    func redirectURI(_ text: String?, for format: VerificationReport.Format, origins: [String]) throws(APIError) -> String? {
        guard let text else { return nil }
        guard descriptor(format)?.wire.byReference == true else {
            throw APIError.malformed("redirectUri is for a format the wallet answers by reference (the same-device redirect)")
        }
        guard text.utf8.count <= 2_048, let url = URLComponents(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty,
              url.fragment == nil, url.user == nil, url.password == nil, scheme == "https" || (scheme == "http" && configuration.testMode)
        else {
            throw APIError.malformed("redirectUri must be an absolute https URL without fragment or user information, of at most 2,048 bytes")
        }
        let origin = scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
        guard origins.contains(origin) else {
            throw APIError.forbidden("redirectUri's origin \(InputQuote.short(origin)) is not one of the key's origins; the wallet returns "
                + "the user to your own pages only")
        }
        return text
    }

    /// Stores the request; a failure releases its admission and answers 503.
    private func insert(_ stored: StoredRequest) async throws(APIError) {
        do throws(APIError) {
            try await fromStore("insert") { try await store.insert(stored) }
        } catch {
            outstanding.release(id: stored.id)
            throw error
        }
    }
}
