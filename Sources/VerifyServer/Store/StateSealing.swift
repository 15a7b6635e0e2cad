import CryptoCore
import Foundation
import Mdoc
import MdocModel
import ServiceLifecycle
import Verifier

/// The key that encrypts every request's state (the format's secrets) before the store keeps it: 32 random bytes,
/// from the file `requestStateKeyFile` names.
///
/// The key never appears in logs or descriptions.
public struct RequestStateKey: Sendable, CustomStringConvertible, CustomReflectable {
    let bytes: [UInt8]

    /// The key length in bytes (AES-256).
    public static let byteCount = 32
    /// The longest key file read: 64 hex digits and some white space. A longer file is refused unread.
    static let longestFile = 256

    /// A key from its 32 bytes.
    ///
    /// Throws `RequestStoreError` for another length, or bytes that do not look random (fewer than 16 distinct values).
    public init(bytes: [UInt8]) throws(RequestStoreError) {
        guard bytes.count == Self.byteCount else {
            throw RequestStoreError("the request state key must be \(Self.byteCount) bytes, not \(bytes.count)")
        }
        // 32 random bytes hold about 30 distinct values; fewer than 16 is a placeholder, not a key.
        guard Set(bytes).count >= 16 else {
            throw RequestStoreError("the request state key does not look random; make one with `openssl rand -hex 32`")
        }
        self.bytes = bytes
    }

    /// Reads a key file: 32 raw bytes, or 64 hex digits (surrounding white space ignored), as `openssl rand -hex 32`
    /// writes them.
    ///
    /// Throws `RequestStoreError` when the file cannot be read, is longer than 256 bytes, or holds neither form.
    public init(contentsOfFile path: String) throws(RequestStoreError) {
        let refusal = RequestStoreError("\(path) must hold 32 random bytes, raw or as 64 hex digits (`openssl rand -hex 32 > FILE`)")
        let data: Data
        do {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw RequestStoreError("\(path) cannot be read") }
            defer { try? handle.close() }
            // Reads one byte past the longest key file, so /dev/zero or a huge file is refused without reading it all.
            data = try handle.read(upToCount: Self.longestFile + 1) ?? Data()
        } catch let error as RequestStoreError {
            throw error
        } catch {
            throw RequestStoreError("\(path) cannot be read")
        }
        guard data.count <= Self.longestFile else { throw refusal }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.utf8.count == 2 * Self.byteCount, let bytes = Hex.decode(text) {
            try self.init(bytes: bytes)
        } else if data.count == Self.byteCount, !data.allSatisfy({ Character(UnicodeScalar($0)).isHexDigit }) {
            // 32 hex digits are 16 bytes written as text (`openssl rand -hex 16`), not a raw key.
            try self.init(bytes: [UInt8](data))
        } else {
            throw refusal
        }
    }

    /// "RequestStateKey(redacted)".
    public var description: String { "RequestStateKey(redacted)" }
    /// No children: `dump` and reflection never show the key.
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// Encrypts each request's state with AES-256-GCM under the configured key before the store keeps it, and decrypts it
/// on the way out; the request ID is the associated data, so a state cannot be moved to another row. Without a key the
/// state passes through as it is, and a sealed one is refused with a message naming the setting.
///
/// The sealed state is `{"aes-256-gcm": base64url(nonce ‖ ciphertext ‖ tag)}`; the empty state a consumed or expired
/// request is left with stays empty.
struct SealedStateStore: RequestStoreLayer {
    let base: any RequestStore
    let key: RequestStateKey?

    static let field = "aes-256-gcm"
    private static let algorithm = AEADAlgorithm.aes256GCM

    func insert(_ request: StoredRequest, deadline: Date) async throws {
        var sealed = request
        sealed.state = try seal(request.state, id: request.id)
        try await base.insert(sealed, deadline: deadline)
    }

    func consume(id: String, clientSecretHash: String?, now: Date, deadline: Date) async throws -> ConsumeOutcome {
        let outcome = try await base.consume(id: id, clientSecretHash: clientSecretHash, now: now, deadline: deadline)
        guard case .consumed(var request) = outcome else { return outcome }
        request.state = try open(request.state, id: id)
        return .consumed(request)
    }

    func lookup(id: String) async throws -> StoredRequest? {
        guard var request = try await base.lookup(id: id) else { return nil }
        request.state = try open(request.state, id: id)
        if let result = request.result { request.result = try openResult(result, id: id) }
        return request
    }

    /// The report (it holds the disclosed elements) is sealed like the state, with its own associated data so that a
    /// sealed state and a sealed report cannot stand in for each other: `aes-256-gcm:` + base64url(nonce ‖ ciphertext
    /// ‖ tag). Unsealed, a report is JSON text (it starts with `{`).
    /// A queued webhook's body (it may carry the report) is sealed the same way, with `webhook:` and the event's ID as
    /// associated data; so is a transaction's own destination (a URL may carry a token), with `webhook-url:`, which
    /// also keeps a row from being pointed elsewhere in the database.
    func recordResult(id: String, result: StoredResult, webhook: WebhookEvent?) async throws {
        var sealed = result
        sealed.report = try sealText(result.report, aad: Self.resultAAD(id))
        var sealedEvent = webhook
        if let webhook {
            sealedEvent?.body = try sealText(webhook.body, aad: Self.webhookAAD(webhook.id))
            sealedEvent?.url = try webhook.url.map { try sealText($0, aad: Self.webhookURLAAD(webhook.id)) }
        }
        try await base.recordResult(id: id, result: sealed, webhook: sealedEvent)
    }

    func claimWebhooks(now: Date, leaseUntil: Date, limit: Int) async throws -> [WebhookEvent] {
        try await base.claimWebhooks(now: now, leaseUntil: leaseUntil, limit: limit).map { event in
            var opened = event
            do {
                opened.body = try openText(event.body, aad: Self.webhookAAD(event.id), what: "the webhook event")
                opened.url = try event.url.map { try openText($0, aad: Self.webhookURLAAD(event.id), what: "the webhook event's URL") }
            } catch {
                // One event that does not open must not hold up the others: it goes back as unreadable, bodiless.
                opened.body = ""
                opened.url = nil
                opened.unreadable = "\(error)"
            }
            return opened
        }
    }

    static let resultPrefix = field + ":"
    private static func resultAAD(_ id: String) -> [UInt8] { Array("result:\(id)".utf8) }
    private static func webhookAAD(_ id: String) -> [UInt8] { Array("webhook:\(id)".utf8) }
    private static func webhookURLAAD(_ id: String) -> [UInt8] { Array("webhook-url:\(id)".utf8) }

    /// base64url(nonce ‖ ciphertext ‖ tag) of `plaintext` under `key`.
    private static func sealed(_ plaintext: [UInt8], key: RequestStateKey, aad: [UInt8]) throws -> String {
        let nonce = SecureRandom.bytes(algorithm.nonceByteCount)
        return Base64URL.encode(nonce + (try algorithm.seal(key: key.bytes, nonce: nonce, plaintext: plaintext, aad: aad)))
    }

    /// The plaintext of base64url(nonce ‖ ciphertext ‖ tag) under `key`; nil when it does not open.
    private static func opened(_ text: String, key: RequestStateKey, aad: [UInt8]) -> [UInt8]? {
        guard let bytes = Base64URL.decode(text), bytes.count >= algorithm.nonceByteCount + algorithm.tagByteCount else { return nil }
        return try? algorithm.open(key: key.bytes, nonce: Array(bytes.prefix(algorithm.nonceByteCount)),
                                   ciphertext: Array(bytes.dropFirst(algorithm.nonceByteCount)), aad: aad)
    }

    /// `aes-256-gcm:` + base64url(nonce ‖ ciphertext ‖ tag) with a key; the text as it is without one.
    private func sealText(_ text: String, aad: [UInt8]) throws -> String {
        guard let key else { return text }
        return Self.resultPrefix + (try Self.sealed(Array(text.utf8), key: key, aad: aad))
    }

    func openResult(_ result: StoredResult, id: String) throws -> StoredResult {
        var opened = result
        opened.report = try openText(result.report, aad: Self.resultAAD(id), what: "request \(id)'s result")
        return opened
    }

    private func openText(_ text: String, aad: [UInt8], what: String) throws -> String {
        let sealed = text.hasPrefix(Self.resultPrefix)
        guard let key else {
            guard !sealed else { throw RequestStoreError("\(what) was stored encrypted, and requestStateKeyFile is not set now") }
            return text
        }
        guard sealed else { throw RequestStoreError("\(what) was stored unencrypted, and requestStateKeyFile is set now") }
        guard let plaintext = Self.opened(String(text.dropFirst(Self.resultPrefix.count)), key: key, aad: aad)
        else { throw RequestStoreError("\(what) does not open with the configured requestStateKeyFile (was the key changed?)") }
        return String(decoding: plaintext, as: UTF8.self)
    }

    func seal(_ state: KeptState, id: String) throws -> KeptState {
        guard let key, !state.isEmpty else { return state }
        let sealed = try Self.sealed(Array(state.json.utf8), key: key, aad: Array(id.utf8))
        return try KeptState(json: JSONValue.object([(Self.field, .string(sealed))]).serializedBytes())
    }

    func open(_ state: KeptState, id: String) throws -> KeptState {
        guard !state.isEmpty else { return state }
        // Sealed: the one member the seal writes, and nothing beside it.
        let members = state.value.members ?? []
        let sealed = members.count == 1 && members[0].0 == Self.field ? members[0].1.string : nil
        guard let key else {
            guard sealed == nil else {
                throw RequestStoreError("request \(id) was stored encrypted, and requestStateKeyFile is not set now")
            }
            return state
        }
        guard let sealed else { throw RequestStoreError("request \(id) was stored unencrypted, and requestStateKeyFile is set now") }
        guard let plaintext = Self.opened(sealed, key: key, aad: Array(id.utf8)), let opened = try? KeptState(json: plaintext)
        else { throw RequestStoreError("request \(id)'s state does not open with the configured requestStateKeyFile (was the key changed?)") }
        return opened
    }
}
