/// A check of the report: its stable identifier (`area.name`, e.g. `issuer.signature`), the clause it
/// implements and every error code it can fail with. Declared once as a static member (this layer's in
/// `CheckCatalog.swift`); compare with `==` (by identifier), never with a string literal.
public struct CheckID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The identifier as written in reports.
    public var rawValue: String { storage.rawValue }
    /// The clause of the standard (or the policy) the check implements.
    public var clause: String { storage.clause }
    /// The codes a `fail` of this check may carry; a test holds every report to this list.
    public var codes: [ErrorCode] { storage.codes }

    // One reference instead of three: every check result holds its ID, and results are created, copied into reports
    // and freed on every verification.
    private final class Storage: Sendable {
        let rawValue: String
        let clause: String
        let codes: [ErrorCode]

        init(rawValue: String, clause: String, codes: [ErrorCode]) {
            (self.rawValue, self.clause, self.codes) = (rawValue, clause, codes)
        }
    }

    private let storage: Storage

    package init(_ rawValue: String, clause: String, codes: [ErrorCode]) {
        storage = Storage(rawValue: rawValue, clause: clause, codes: codes)
    }

    /// The identifier, as written in reports.
    public var description: String { rawValue }

    /// Whether two checks have the same identifier; clauses and codes are not compared. The declared static members
    /// are single instances, so comparing them is comparing references.
    public static func == (lhs: CheckID, rhs: CheckID) -> Bool { lhs.storage === rhs.storage || lhs.rawValue == rhs.rawValue }

    /// Hashes the identifier only.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Orders checks by identifier.
    public static func < (lhs: CheckID, rhs: CheckID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes the identifier of a report written earlier (its clause and codes are not part of the JSON).
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self), clause: "", codes: [])
    }

    /// Encodes the identifier as a single string (clause and codes are left out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
