/// Outcome of one verification step.
public enum CheckStatus: String, Sendable, Codable {
    case pass, fail, warn, skip
}

/// One line of the report: which check ran, on what, how it ended, and the clause it implements.
public struct CheckResult: Sendable, Equatable, Codable {
    public let id: CheckID
    public let status: CheckStatus
    public let detail: String
    /// The clause this line implements, e.g. "ISO/IEC 18013-5 §9.1.2.4" (usually `id.clause`).
    public let clause: String
    /// Index of the document in `DeviceResponse.documents`, when the check is per document.
    public let document: Int?
    /// Set when `status == .fail`.
    public let code: ErrorCode?

    public init(id: CheckID, status: CheckStatus, detail: String, clause: String? = nil, document: Int? = nil, code: ErrorCode? = nil) {
        self.id = id
        self.status = status
        self.detail = detail
        self.clause = clause ?? id.clause
        self.document = document
        self.code = code
    }
}

/// Collects check results and errors in order. Every step reports pass, fail, warn or skip.
public struct CheckLog: Sendable {
    public private(set) var checks: [CheckResult] = []
    public private(set) var errors: [VerificationError] = []

    public init() {}

    public var hasFailures: Bool { !errors.isEmpty }

    public mutating func pass(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .pass, detail: detail, clause: clause, document: document))
    }

    public mutating func warn(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .warn, detail: detail, clause: clause, document: document))
    }

    public mutating func skip(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .skip, detail: detail, clause: clause, document: document))
    }

    public mutating func fail(_ id: CheckID, _ code: ErrorCode, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .fail, detail: detail, clause: clause, document: document, code: code))
        let prefix = document.map { "document \($0): " } ?? ""
        errors.append(VerificationError(code, prefix + detail))
    }

    public mutating func append(contentsOf other: CheckLog) {
        checks.append(contentsOf: other.checks)
        errors.append(contentsOf: other.errors)
    }
}
