/// Outcome of one verification step.
public enum CheckStatus: String, Sendable, Codable {
    /// The check ran and found nothing wrong.
    case pass
    /// The check found a problem; the result carries a `code` and the verification is rejected.
    case fail
    /// The check found something worth reporting that does not reject the verification.
    case warn
    /// The check did not run, e.g. because it needs a request the caller did not give.
    case skip
}

/// One line of the report: which check ran, on what, how it ended, and the clause it implements.
public struct CheckResult: Sendable, Equatable, Codable {
    /// Which check this is.
    public let id: CheckID
    /// How the check ended.
    public let status: CheckStatus
    /// What the check found, in words for humans.
    public let detail: String
    /// The clause this line implements, e.g. "ISO/IEC 18013-5 §9.1.2.4" (usually `id.clause`).
    public let clause: String
    /// Index of the document in `DeviceResponse.documents`, when the check is per document.
    public let document: Int?
    /// The rejection code; set when `status == .fail`.
    public let code: ErrorCode?

    /// Creates a result; `clause` defaults to the check's own (`id.clause`).
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
    /// Every result recorded, in order.
    public private(set) var checks: [CheckResult] = []
    /// The rejections recorded, one per failed result, in order.
    public private(set) var errors: [VerificationError] = []

    /// Creates an empty log.
    public init() {}

    /// True when any check failed.
    public var hasFailures: Bool { !errors.isEmpty }

    /// Records that a check passed.
    ///
    /// `detail` says what was found; `clause` overrides the check's clause; `document` is the document's index, for
    /// per-document checks.
    public mutating func pass(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .pass, detail: detail, clause: clause, document: document))
    }

    /// Records a warning, which does not reject the verification.
    public mutating func warn(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .warn, detail: detail, clause: clause, document: document))
    }

    /// Records that a check did not run.
    public mutating func skip(_ id: CheckID, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .skip, detail: detail, clause: clause, document: document))
    }

    /// Records a failure with its code, and the matching rejection in `errors`.
    ///
    /// The rejection's message is `detail`, preceded by `document N: ` when `document` is given.
    public mutating func fail(_ id: CheckID, _ code: ErrorCode, _ detail: String, clause: String? = nil, document: Int? = nil) {
        checks.append(CheckResult(id: id, status: .fail, detail: detail, clause: clause, document: document, code: code))
        let prefix = document.map { "document \($0): " } ?? ""
        errors.append(VerificationError(code, prefix + detail))
    }

    /// Makes room for `lines` results in all, so that a log expected to grow that far is allocated once.
    package mutating func reserveCapacity(_ lines: Int) {
        checks.reserveCapacity(lines)
    }
}

extension CheckLog {
    /// Inserts `result` before the line at `index`; a failure (with its code) adds its rejection among `errors`, in
    /// line order.
    package mutating func insert(_ result: CheckResult, at index: Int) {
        if let error = Self.rejection(result) { errors.insert(error, at: failures(before: index)) }
        checks.insert(result, at: index)
    }

    /// Replaces the line at `index` with `result`, keeping `errors` one per failed line, in line order.
    package mutating func replace(at index: Int, with result: CheckResult) {
        let position = failures(before: index)
        if Self.rejection(checks[index]) != nil { errors.remove(at: position) }
        if let error = Self.rejection(result) { errors.insert(error, at: position) }
        checks[index] = result
    }

    /// Replaces the lines check `id` wrote for `document` (one contiguous run, where it first appears) with `results`,
    /// keeping `errors` one per failed line, in line order. Nothing changes when the check wrote no line.
    package mutating func replaceLines(of id: CheckID, document: Int, with results: [CheckResult]) {
        guard let start = checks.firstIndex(where: { $0.id == id && $0.document == document }) else { return }
        var end = start
        while end < checks.endIndex, checks[end].id == id, checks[end].document == document { end += 1 }
        let position = failures(before: start)
        let removed = checks[start..<end].reduce(0) { $0 + (Self.rejection($1) == nil ? 0 : 1) }
        errors.replaceSubrange(position..<(position + removed), with: results.compactMap(Self.rejection))
        checks.replaceSubrange(start..<end, with: results)
    }

    /// The failed lines before `index` (each has its rejection in `errors`, in the same order).
    private func failures(before index: Int) -> Int {
        checks[..<index].reduce(0) { $0 + ($1.status == .fail && $1.code != nil ? 1 : 0) }
    }

    private static func rejection(_ result: CheckResult) -> VerificationError? {
        guard result.status == .fail, let code = result.code else { return nil }
        return VerificationError(code, (result.document.map { "document \($0): " } ?? "") + result.detail)
    }
}
