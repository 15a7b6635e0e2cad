import Foundation
import Mdoc
import MdocModel
import Verifier

/// One pending request as the store keeps it.
///
/// It holds what was asked for, the format's secret state (the Apple nonce, or the Annex C private key,
/// encryptionInfo and origin) and when it expires.
public struct StoredRequest: Sendable, Equatable {
    /// The request ID the client passes back to `POST /v1/verify` (see `newID()`).
    public var id: String
    /// The response format the request is for.
    public var format: VerificationReport.Format
    /// What was asked for: per docType, the namespaces, elements and intent to retain.
    public var policy: RequestPolicy
    /// What the format keeps for the answer (and the server's own members beside it, `ServerKeptState`); never sent
    /// to the client, never logged.
    public var state: KeptState
    /// When the request was created.
    public var createdAt: Date
    /// When the request expires: a first verify attempt at or after this instant gets `nonce.expired`.
    public var expiresAt: Date
    /// For a transaction (`POST /v1/transactions`): the SHA-256 (lowercase hex) of the client secret the wallet-facing
    /// endpoint must present; nil for a request made by `POST /v1/requests`. Only a consume that names the same hash
    /// finds the request.
    public var clientSecretHash: String?
    /// For a transaction: the ID of the API key that created it (only that key reads its result).
    public var apiKeyID: String?
    /// For a transaction: the outcome of its verification once the wallet's answer was verified; nil before.
    public var result: StoredResult?
    /// When the wallet fetched the request object (a format whose request travels by reference); nil before.
    public var fetchedAt: Date?

    /// Creates a stored request from its fields.
    public init(id: String, format: VerificationReport.Format, policy: RequestPolicy, state: KeptState, createdAt: Date, expiresAt: Date,
                clientSecretHash: String? = nil, apiKeyID: String? = nil, result: StoredResult? = nil, fetchedAt: Date? = nil) {
        self.id = id
        self.format = format
        self.policy = policy
        self.state = state
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.clientSecretHash = clientSecretHash
        self.apiKeyID = apiKeyID
        self.result = result
        self.fetchedAt = fetchedAt
    }

    /// A new random request ID (UUID v4, lower case).
    public static func newID() -> String { UUID().uuidString.lowercased() }
}

/// The verified outcome of a transaction, kept for the backend that created it until the request is purged.
public struct StoredResult: Sendable, Equatable {
    /// Whether the report verified.
    public var verified: Bool
    /// SHA-256 (lowercase hex) of the single-use `response_code` the wallet's redirect carries, when the result was
    /// answered with one (a same-device redirect flow): the backend reads the result only with that code.
    public var responseCodeHash: String?
    /// The verification report as JSON text (the body `POST /v1/verify` answers with); it holds the disclosed
    /// elements, so the store may keep it encrypted (`requestStateKeyFile`).
    public var report: String

    /// Creates a result from its fields.
    public init(verified: Bool, report: String, responseCodeHash: String? = nil) {
        self.verified = verified
        self.report = report
        self.responseCodeHash = responseCodeHash
    }

    /// "verified" or "rejected", as the status column and `GET /v1/transactions/{requestId}` name it.
    public var status: String { verified ? "verified" : "rejected" }
}

/// The outcome of the single atomic consumption of a request.
public enum ConsumeOutcome: Sendable, Equatable {
    /// First attempt before expiry: the caller now owns the request.
    case consumed(StoredRequest)
    /// First attempt, but at or after `expiresAt` (the request is consumed all the same).
    case expired
    /// A previous attempt already consumed it.
    case replayed
    /// No such request (never created, or purged).
    case unknown
}

/// Serialization of the text columns shared by the SQL stores.
enum StoredRequestColumns {
    static func encode(policy: RequestPolicy) throws -> String {
        String(decoding: try JSONEncoder.sorted.encode(policy), as: UTF8.self)
    }

    static func encode(state: KeptState) -> String {
        state.json
    }

    static func decodePolicy(_ text: String) throws -> RequestPolicy {
        try JSONDecoder().decode(RequestPolicy.self, from: Data(text.utf8))
    }

    static func decodeState(_ text: String) throws -> KeptState {
        try KeptState(json: Array(text.utf8))
    }

    /// A stored request from its columns; its result when it has both a status and a report.
    static func request(id: String, format: String, policy: String, state: String, createdAt: Date, expiresAt: Date,
                        clientSecretHash: String?, apiKeyID: String?, resultStatus: String? = nil, resultReport: String? = nil,
                        responseCodeHash: String? = nil, fetchedAt: Date? = nil) throws -> StoredRequest {
        // The format is looked up in the runtime's registry where it is used: a row names whichever format it was made for.
        let format = VerificationReport.Format(registering: format)
        let result = resultStatus.flatMap { status in
            resultReport.map { StoredResult(verified: status == "verified", report: $0, responseCodeHash: responseCodeHash) }
        }
        return StoredRequest(id: id, format: format, policy: try decodePolicy(policy), state: try decodeState(state), createdAt: createdAt,
                             expiresAt: expiresAt, clientSecretHash: clientSecretHash, apiKeyID: apiKeyID, result: result, fetchedAt: fetchedAt)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
