import CBOR
import CryptoCore
import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import Verifier
import VerifyServerAPI

/// A transaction's owner as the store records it: the creating key's ID, or the demo page's (an ID no configured key
/// can have: configured IDs hold no parentheses).
enum TransactionOwner {
    static let demo = "(demo)"
}

/// Ceilings of the wallet-facing endpoint's credentials.
enum ClientSecret {
    /// Random bytes of a client secret (256 bits), handed out as base64url.
    static let byteCount = 32
    /// The longest `X-Client-Secret` examined; a longer one is refused unhashed (as unknown).
    static let longestHeader = 256
    /// The header the page sends the secret in.
    static let header = HTTPFields.Element.Name("X-Client-Secret")!

    /// A new secret and the hash the store keeps (SHA-256 of its text, lowercase hex).
    static func make() -> (secret: String, hash: String) {
        let secret = Base64URL.encode(SecureRandom.bytes(byteCount))
        return (secret, hash(secret))
    }

    static func hash(_ secret: String) -> String { Hex.encode(Digest.hash(.sha256, Array(secret.utf8))) }
}

extension ServerHandlers {
    // MARK: Backend API (API key)

    /// `POST /v1/transactions`: authenticated by an API key; creates a request for `format` and `documents`, bound to
    /// an origin among the key's configured ones (never one the caller makes up), and answers 201 with the request's
    /// public fields, its `clientSecret` for the wallet-facing endpoint, and its expiry.
    func createTransaction(_ request: Request, client: String) async -> Response {
        let key: APIKey
        switch authenticate(request, client: client, route: "create") {
        case .key(let found): key = found
        case .refused(let refusal): return refusal
        }
        var retryAfter: Int?
        do throws(APIError) {
            let body = try await bodies.decode(CreateRequestBody.self, from: request)
            let (format, policy) = try validated(body)
            guard key.allows(format) else {
                throw APIError.forbidden("API key \(key.id) may not create \(format.rawValue) transactions (its formats: "
                    + "\(key.formats.map(\.rawValue).joined(separator: ", "))); use a key configured for it")
            }
            let origin = try Self.origin(body.origin, bound: descriptor(format)?.bindsOrigin == true, key: key)
            let serverState = ServerKeptState(redirectURI: try redirectURI(body.redirectUri, for: format, origins: key.origins),
                                              webhookURL: try transactionWebhookURL(body.webhookURL))
            return try await transaction(format: format, policy: policy, origin: origin, owner: key.id,
                                         counted: .apiKey(key.id), serverState: serverState, retryAfter: &retryAfter)
        } catch {
            logger.info("transaction refused", metadata: [
                "keyId": "\(key.id)", "status": "\(error.status.code)", "code": "\(error.code.rawValue)",
            ])
            var response = error.response(retryAfter: retryAfter)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    /// The origin a web transaction is bound to: the one the backend names if the key lists it, or the key's only
    /// one; none for apple-app (its transcript binds no origin).
    static func origin(_ named: String?, bound: Bool, key: APIKey) throws(APIError) -> String? {
        guard bound else { return nil }
        if let named {
            guard key.origins.contains(named) else {
                throw APIError.forbidden("origin \(InputQuote.short(named)) is not one of API key \(key.id)'s origins; "
                    + "add it to the key's `origins` in the configuration")
            }
            return named
        }
        guard key.origins.count == 1, let only = key.origins.first else {
            throw APIError.malformed(key.origins.isEmpty
                ? "API key \(key.id) has no origins configured; list the page's origin in the key's `origins`"
                : "API key \(key.id) has several origins; name the page's one in `origin`")
        }
        return only
    }

    /// Stores a transaction for `owner` and answers 201: `requestId`, `clientSecret` (not for a format the wallet
    /// answers by reference: no page relays its answer), the origin, the format's public fields and `expiresAt`.
    func transaction(format: VerificationReport.Format, policy: RequestPolicy, origin: String?, owner: String, counted: Counted,
                     serverState: ServerKeptState = ServerKeptState(), retryAfter: inout Int?) async throws(APIError) -> Response {
        let secret = ClientSecret.make()
        let (stored, prepared) = try await store(format: format, policy: policy, origin: origin, counted: counted,
                                                 binding: (secret.hash, owner), serverState: serverState, retryAfter: &retryAfter)
        var fields: [(String, JSONValue)] = [("requestId", .string(stored.id))]
        let descriptor = descriptor(format)
        if descriptor?.wire.byReference != true { fields.append(("clientSecret", .string(secret.secret))) }
        fields.append(("format", .string(format.rawValue)))
        if let origin { fields.append(("origin", .string(origin))) }
        // The page passes {protocol, data} to navigator.credentials.get alike for every web format: a flow that does not
        // name its protocol uses the format's default one.
        if let wireProtocol = descriptor?.wire.dcAPIProtocols.first, !prepared.publicFields.contains(where: { $0.0 == "protocol" }) {
            fields.append(("protocol", .string(wireProtocol)))
        }
        var response = Response.json(.created, .object(fields + prepared.publicFields
            + [("expiresAt", .string(RFC3339.format(stored.expiresAt)))]))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `GET /v1/transactions/{requestId}`: authenticated by an API key; the transaction's status (`pending`,
    /// `fetched` once a wallet fetched its request object, `verified`, `rejected`, `expired`) and, once verified or
    /// rejected, its report. Another key's transaction, or a request made without a key, is 404 like an unknown one. A
    /// transaction answered with a same-device redirect gives its report only with `?response_code=` from it (403).
    func transactionStatus(_ request: Request, id: String?, client: String) async -> Response {
        switch authenticate(request, client: client, route: "status") {
        case .key(let key): return await status(of: id, owner: key.id, responseCode: request.uri.queryParameters["response_code"].map(String.init))
        case .refused(let refusal): return refusal
        }
    }

    /// The status answer of transaction `id` for `owner`, its report released with `responseCode` when it needs one.
    func status(of id: String?, owner: String, responseCode: String?) async -> Response {
        var response: Response
        do throws(APIError) {
            guard let id, !id.isEmpty, id.unicodeScalars.count <= 128 else { throw APIError.unknownRequest }
            guard let stored = try await lookupStored(id), stored.clientSecretHash != nil, stored.apiKeyID == owner else { throw APIError.unknownRequest }
            if let hash = stored.result?.responseCodeHash {
                guard let responseCode, responseCode.utf8.count <= ClientSecret.longestHeader,
                      constantTimeEquals(Array(ClientSecret.hash(responseCode).utf8), Array(hash.utf8)) else {
                    throw APIError.forbidden("this transaction was answered on the same device: read it with the response_code of "
                        + "the wallet's redirect (?response_code=…), which only the user's browser has")
                }
            }
            let status = stored.result?.status ?? (clock.now() >= stored.expiresAt ? "expired" : stored.fetchedAt != nil ? "fetched" : "pending")
            let head = JSONValue.object([
                ("requestId", .string(stored.id)), ("format", .string(stored.format.rawValue)), ("status", .string(status)),
                ("expiresAt", .string(RFC3339.format(stored.expiresAt))),
            ]).serializedBytes()
            var bytes = head
            if let report = stored.result?.report, head.last == UInt8(ascii: "}") {
                // The report as verified, spliced in as stored (JSON the server wrote itself).
                bytes = Array(head.dropLast()) + Array(#","report":"#.utf8) + Array(report.utf8) + [UInt8(ascii: "}")]
            }
            response = Response.json(.ok, bytes: bytes)
        } catch {
            response = error.response
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The stored request `id` (nil when there is none), or 503 when the store fails.
    func lookupStored(_ id: String) async throws(APIError) -> StoredRequest? {
        try await fromStore("lookup", ["requestId": "\(Self.loggable(id))"]) { try await store.lookup(id: id) }
    }

    /// The configured API key the request's `Authorization: Bearer` names, or the 401 answer (logged with the client's
    /// address and the reason, never the presented value).
    func authenticate(_ request: Request, client: String, route: String) -> Authentication {
        let reason: String
        switch APIKeyAuthenticator(keys: credentials.apiKeys).authenticate(request) {
        case .authenticated(let key): return .key(key)
        case .missing: reason = "missing"
        case .invalid: reason = "invalid"
        }
        logger.warning("API key refused", metadata: ["client": "\(client)", "route": "\(route)", "reason": "\(reason)"])
        let error = APIError.unauthorized(reason == "missing"
            ? "this endpoint needs an API key: send `Authorization: Bearer <key>` (verify-server --new-api-key makes one)"
            : "the API key is not one this server is configured with (check the key, or its sha256 in apiKeys)")
        var response = error.response
        response.headers[.wwwAuthenticate] = reason == "missing" ? #"Bearer realm="verify-server""#
            : #"Bearer realm="verify-server", error="invalid_token""#
        response.headers[.cacheControl] = "no-store"
        return .refused(response)
    }
}

/// The API key a request authenticated with, or the answer that refuses it.
enum Authentication {
    case key(APIKey)
    case refused(Response)
}
