import CBOR
import CryptoCore
import Foundation
import Hummingbird
import Logging
import Mdoc
import MdocModel
import Verifier

/// The wallet-facing routes of a format whose request travels by reference (`FormatWire.byReference`: OpenID4VP by QR
/// code or link). The wallet is the client: no page, no client secret. The request ID in the path is unguessable;
/// the request object is served once, the answer taken once; input that can never verify consumes nothing.
extension ServerHandlers {
    /// `GET` or `POST /v1/wallet/{requestId}/request`: the signed request object (`application/oauth-authz-req+jwt`),
    /// once. A POST carries `wallet_metadata` and `wallet_nonce` as a form; what rules the request out is 400 with its
    /// code, and consumes nothing. A second fetch is 409, a fetch after expiry 410, an unknown ID 404.
    func walletRequestObject(_ request: Request, id: String?, posted: Bool) async -> Response {
        var response: Response
        do throws(APIError) {
            let id = try Self.walletID(id)
            var form: [String: String] = [:]
            if posted { form = try await walletForm(request) }
            let stored = try await referencedRequest(id)
            let now = clock.now()
            guard stored.fetchedAt == nil, stored.result == nil, !stored.state.isEmpty || now >= stored.expiresAt else {
                throw APIError.replayed("the request object was already fetched; a wallet fetches it once: ask the relying party for a new QR code or link")
            }
            guard now < stored.expiresAt else { throw APIError.expired("this request expired; ask the relying party for a new QR code or link") }
            guard let flow = runtimes.current.flows[stored.format] else { throw APIError.unknownRequest }
            let object: String
            do {
                object = try flow.requestObject(state: stored.state, walletNonce: form["wallet_nonce"], walletMetadata: form["wallet_metadata"],
                                                at: now)
            } catch {
                throw APIError.malformed(error.message, code: error.code)
            }
            guard try await markFetched(id, now: now) else {
                throw APIError.replayed("the request object was already fetched; a wallet fetches it once")
            }
            logger.info("request object fetched", metadata: ["requestId": "\(Self.loggable(id))", "format": "\(stored.format.rawValue)"])
            response = Response(status: .ok, headers: [.contentType: "application/oauth-authz-req+jwt"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: object)))
        } catch {
            logger.info("request object refused", metadata: ["status": "\(error.status.code)", "code": "\(error.code.rawValue)"])
            response = error.response
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `POST /v1/wallet/{requestId}/direct_post`: the wallet's answer (`application/x-www-form-urlencoded`), taken once.
    /// A body that cannot be this request's answer (wrong content type, a parameter twice, a malformed JWE or one that
    /// does not open with the request's key, another `state`) is 4xx and consumes nothing; otherwise the request is consumed, the answer verified and the result kept for the
    /// backend, and the wallet gets 200 `{}`, or `{"redirect_uri": …#response_code=…}` for a same-device transaction.
    func walletDirectPost(_ request: Request, id: String?) async -> Response {
        let start = ContinuousClock.now
        var response: Response
        do throws(APIError) {
            let id = try Self.walletID(id)
            let body = try await walletFormText(request)
            let stored = try await referencedRequest(id)
            guard let flow = runtimes.current.flows[stored.format] else { throw APIError.unknownRequest }
            let answer: PrecheckedAnswer
            do {
                answer = try flow.precheck(response: body, state: stored.state)
            } catch {
                throw APIError.malformed(error.message, code: error.code)
            }
            let consumed = try await consumeReferenced(stored)
            let redirect = ServerKeptState(consumed.state).redirectURI
            let code = redirect.map { _ in Base64URL.encode(SecureRandom.bytes(32)) }
            switch await verifyAndKeep(.success(answer), of: consumed, responseCodeHash: code.map(ClientSecret.hash), logID: Self.loggable(id), start: start) {
            case .success:
                var fields: [(String, JSONValue)] = []
                if let redirect, let code { fields.append(("redirect_uri", .string(redirect + "#response_code=" + code))) }
                response = Response.json(.ok, .object(fields))
            case .failure(let error):
                response = error.response
            }
        } catch {
            response = refuse(error, requestId: id, start: start)
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The path's request ID, or 404 when it cannot be one.
    private static func walletID(_ id: String?) throws(APIError) -> String {
        guard let id, !id.isEmpty, id.unicodeScalars.count <= 128 else { throw APIError.unknownRequest }
        return id
    }

    /// The stored request `id` of a by-reference format; 404 for any other.
    private func referencedRequest(_ id: String) async throws(APIError) -> StoredRequest {
        guard let stored = try await lookupStored(id), descriptor(stored.format)?.wire.byReference == true else { throw APIError.unknownRequest }
        return stored
    }

    /// Consumes `stored` (its own secret hash finds it): the request as it was, or 409 or 410.
    private func consumeReferenced(_ stored: StoredRequest) async throws(APIError) -> StoredRequest {
        let outcome = try await fromStore("consume", ["requestId": "\(stored.id)"]) {
            try await store.consume(id: stored.id, clientSecretHash: stored.clientSecretHash, now: clock.now(), deadline: .distantFuture)
        }
        switch outcome {
        case .consumed(let request): return request
        case .unknown: throw APIError.unknownRequest
        case .replayed: throw APIError.replayed("this request already received the wallet's answer; ask the relying party for a new one")
        case .expired: throw APIError.expired("this request expired before the wallet answered; ask the relying party for a new one")
        }
    }

    private func markFetched(_ id: String, now: Date) async throws(APIError) -> Bool {
        try await fromStore("mark-fetched", ["requestId": "\(Self.loggable(id))"]) { try await store.markFetched(id: id, now: now) }
    }

    /// The body of a wallet's form post as text: `application/x-www-form-urlencoded`, else 415; UTF-8, else 400.
    private func walletFormText(_ request: Request) async throws(APIError) -> String {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else {
            throw APIError.unsupportedMediaType("the wallet posts a form: Content-Type: application/x-www-form-urlencoded")
        }
        let bytes = Array(try await bodies.collect(request).readableBytesView)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw APIError.malformed("the form is not UTF-8") }
        return text
    }

    /// The parameters of a wallet's POST to `request_uri`; 400 for `wallet_metadata` or `wallet_nonce` given twice or a
    /// bad percent-escape (another parameter is ignored).
    private func walletForm(_ request: Request) async throws(APIError) -> [String: String] {
        let text = try await walletFormText(request)
        do throws(VerificationError) {
            return try FormEncoding.parse(text, significant: ["wallet_metadata", "wallet_nonce"])
        } catch {
            throw APIError.malformed(error.message, code: error.code)
        }
    }
}
