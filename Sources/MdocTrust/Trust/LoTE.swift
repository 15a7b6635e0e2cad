import CryptoCore
import Foundation
import MdocModel

/// An ETSI TS 119 602 List of Trusted Entities (LoTE), JSON binding, as read from its JWS payload:
/// `{"LoTE": {"ListAndSchemeInformation": {…}, "TrustedEntitiesList": [{"TrustedEntityInformation", "TrustedEntityServices"}]}}`.
///
/// Read: the list's version (1), sequence number, type, scheme operator, territory, issue time and next update, and
/// per service its type, status (with its history) and X.509 certificates. Other identities (SKIs, subject names,
/// raw keys) never anchor anything and are only counted. Unknown members are ignored.
public struct LoTE: Sendable {
    /// The most entities, services, or certificates a list may hold (`lote.too_large` beyond).
    public static let maxEntries = 10_000
    /// The most certificates one service may list.
    public static let maxCertificatesPerService = 16
    /// The most history instances one service may list.
    public static let maxHistoryPerService = 64

    /// A status a service took at a time (`ServiceStatus` and `StatusStartingTime`).
    public struct StatusChange: Sendable, Equatable {
        /// The status URI; nil when the instance names none.
        public let status: String?
        /// When it took effect.
        public let start: RFC3339.Timestamp
    }

    /// One service of one trusted entity.
    public struct Service: Sendable {
        /// The entity's `TEName` (English, else the first given).
        public let entityName: String
        /// The service's `ServiceName` (English, else the first given).
        public let name: String
        /// `ServiceTypeIdentifier`, if given.
        public let type: String?
        /// `ServiceStatus`, if given: the EU profiles mostly leave it out (being listed means active).
        public let status: String?
        /// `StatusStartingTime`, if given.
        public let statusStartingTime: RFC3339.Timestamp?
        /// `ServiceHistory` instances with a status time, as listed (newest first by the specification).
        public let history: [StatusChange]
        /// The X.509 certificates of `ServiceDigitalIdentity`.
        public let certificates: [Certificate]
        /// Identities that are not certificates (SKIs, subject names, keys, other ids): they never anchor.
        public let otherIdentities: Int
        /// Where the service is in the list: `TrustedEntitiesList[e].TrustedEntityServices[s]`.
        public let position: String
    }

    /// `LoTEVersionIdentifier` (only 1 is read).
    public let version: UInt64
    /// `LoTESequenceNumber`: grows with every release; a lower one than accepted before is a rollback.
    public let sequenceNumber: UInt64
    /// `LoTEType`, if given (the EU profiles give it).
    public let type: String?
    /// `SchemeOperatorName` (English, else the first given).
    public let operatorName: String
    /// `SchemeTerritory`, if given.
    public let territory: String?
    /// `StatusDeterminationApproach`, if given.
    public let statusDeterminationApproach: String?
    /// `ListIssueDateTime`.
    public let issueDate: RFC3339.Timestamp
    /// `NextUpdate`: past it, the list is stale.
    public let nextUpdate: RFC3339.Timestamp
    /// How many trusted entities the list holds.
    public let entityCount: Int
    /// Every service of every entity, in list order.
    public let services: [Service]

    /// What the rollback mark is kept under: the operator and the list type (one operator publishes several lists,
    /// each with its own sequence), `lote:<operator>|<type>` with `-` for a list without a type. `%` and `|` in either
    /// are percent-encoded (and a type that is just `-`), so two lists never share a key by where a `|` falls.
    public var rollbackKey: String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "|", with: "%7C")
        }
        return Self.rollbackKeyPrefix + "\(escaped(operatorName))|\(type.map { $0 == "-" ? "%2D" : escaped($0) } ?? "-")"
    }

    /// The prefix of every LoTE rollback key: a VICAL provider may not start with it, so the two kinds of marks kept
    /// side by side (verify-server's store) never meet.
    public static let rollbackKeyPrefix = "lote:"

    /// Parses the payload (the JSON inside the JWS). Throws `lote.malformed` naming the problem, `lote.too_large` past
    /// the entry ceilings.
    package init(payload: [UInt8]) throws(VerificationError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(payload, maxNodes: 2_000_000)
        } catch {
            throw VerificationError(.loteMalformed, "the payload is not JSON a LoTE can be read from: \(error.message)")
        }
        guard let lote = root["LoTE"], lote.isObject else { throw Self.malformed("the payload has no `LoTE` object") }
        guard let info = lote["ListAndSchemeInformation"], info.isObject else { throw Self.malformed("no `ListAndSchemeInformation` object") }
        func field(_ name: String) -> String { "ListAndSchemeInformation.\(name)" }
        guard let version = info["LoTEVersionIdentifier"]?.unsignedInteger else {
            throw Self.malformed("\(field("LoTEVersionIdentifier")) is missing or not a non-negative integer")
        }
        guard version == 1 else {
            throw Self.malformed("\(field("LoTEVersionIdentifier")) is \(version); only version 1 (ETSI TS 119 602 V1) is read")
        }
        guard let sequence = info["LoTESequenceNumber"]?.unsignedInteger, sequence >= 1 else {
            throw Self.malformed("\(field("LoTESequenceNumber")) is missing or not a positive integer")
        }
        guard let operatorName = Self.text(info["SchemeOperatorName"]) else {
            throw Self.malformed("\(field("SchemeOperatorName")) is missing or not a [{lang, value}] list")
        }
        let issueDate = try Self.time(info["ListIssueDateTime"], field("ListIssueDateTime"))
        guard let nextNode = info["NextUpdate"], nextNode != .null else {
            throw Self.malformed("\(field("NextUpdate")) is missing or null (a closed list); a list without one cannot be judged fresh")
        }
        let nextUpdate = try Self.time(nextNode, field("NextUpdate"))
        self.version = version
        sequenceNumber = sequence
        type = try Self.optionalString(info["LoTEType"], field("LoTEType"))
        self.operatorName = operatorName
        territory = try Self.optionalString(info["SchemeTerritory"], field("SchemeTerritory"))
        statusDeterminationApproach = try Self.optionalString(info["StatusDeterminationApproach"], field("StatusDeterminationApproach"))
        self.issueDate = issueDate
        self.nextUpdate = nextUpdate

        (entityCount, services) = try Self.entitiesAndServices(lote)
    }

    /// The entity count and every service of `TrustedEntitiesList`, within the entry ceilings.
    private static func entitiesAndServices(_ lote: JSONValue) throws(VerificationError) -> (Int, [Service]) {
        var services: [Service] = []
        var certificateCount = 0
        let entities: [JSONValue]
        switch lote["TrustedEntitiesList"] {
        case nil, .null?: entities = []
        case .array(let items)?: entities = items
        case let other?: throw malformed("`TrustedEntitiesList` is \(other.kind), not an array")
        }
        guard entities.count <= maxEntries else {
            throw VerificationError(.loteTooLarge, "the list names \(entities.count) entities; at most \(maxEntries) are read")
        }
        for (entityIndex, entity) in entities.enumerated() {
            let at = "TrustedEntitiesList[\(entityIndex)]"
            guard entity.isObject else { throw malformed("\(at) is not an object") }
            guard let information = entity["TrustedEntityInformation"], information.isObject,
                  let entityName = Self.text(information["TEName"]) else {
                throw malformed("\(at).TrustedEntityInformation.TEName is missing or not a [{lang, value}] list")
            }
            guard let list = entity["TrustedEntityServices"]?.array else { throw malformed("\(at).TrustedEntityServices is not an array") }
            for (serviceIndex, item) in list.enumerated() {
                guard services.count < maxEntries else {
                    throw VerificationError(.loteTooLarge, "the list names more than \(maxEntries) services; at most that many are read")
                }
                let position = "\(at).TrustedEntityServices[\(serviceIndex)]"
                let service = try Self.service(item, entityName: entityName, position: position)
                certificateCount += service.certificates.count
                guard certificateCount <= maxEntries else {
                    throw VerificationError(.loteTooLarge, "the list holds more than \(maxEntries) certificates; at most that many are read")
                }
                services.append(service)
            }
        }
        return (entities.count, services)
    }

    private static func service(_ item: JSONValue, entityName: String, position: String) throws(VerificationError) -> Service {
        guard let information = item["ServiceInformation"], information.isObject else {
            throw malformed("\(position).ServiceInformation is not an object")
        }
        let at = "\(position).ServiceInformation"
        guard let name = text(information["ServiceName"]) else { throw malformed("\(at).ServiceName is missing or not a [{lang, value}] list") }
        guard let identity = information["ServiceDigitalIdentity"], identity.isObject else {
            throw malformed("\(at).ServiceDigitalIdentity is not an object")
        }
        var certificates: [Certificate] = []
        if let node = identity["X509Certificates"] {
            guard let list = node.array else { throw malformed("\(at).ServiceDigitalIdentity.X509Certificates is not an array") }
            guard list.count <= maxCertificatesPerService else {
                throw VerificationError(.loteTooLarge, "\(at) lists \(list.count) certificates; at most \(maxCertificatesPerService) are read")
            }
            for (index, entry) in list.enumerated() {
                let here = "\(at).ServiceDigitalIdentity.X509Certificates[\(index)]"
                guard let value = entry["val"]?.string, value.utf8.count <= 65_536, let der = Base64URL.decode(value) else {
                    throw malformed("\(here).val is not base64 text of a certificate")
                }
                do {
                    certificates.append(try Certificate(derEncoded: der))
                } catch {
                    throw malformed("\(here) is not a DER X.509 certificate")
                }
            }
        }
        var others = 0
        for key in ["X509SKIs", "X509SubjectNames", "PublicKeyValues", "OtherIds"] { others += identity[key]?.array?.count ?? 0 }
        let status = try optionalString(information["ServiceStatus"], "\(at).ServiceStatus")
        var start: RFC3339.Timestamp?
        if let node = information["StatusStartingTime"], node != .null { start = try time(node, "\(at).StatusStartingTime") }
        var history: [StatusChange] = []
        let instances: [JSONValue]
        switch item["ServiceHistory"] {
        case nil, .null?: instances = []
        case .array(let list)?: instances = list
        case let node? where node["ServiceHistoryInstance"]?.array != nil: instances = node["ServiceHistoryInstance"]?.array ?? []
        case let other?: throw malformed("\(position).ServiceHistory is \(other.kind), not a list of history instances")
        }
        guard instances.count <= maxHistoryPerService else {
            throw VerificationError(.loteTooLarge, "\(position).ServiceHistory lists \(instances.count) instances; at most \(maxHistoryPerService) are read")
        }
        for (index, instance) in instances.enumerated() {
            let here = "\(position).ServiceHistory[\(index)]"
            guard instance.isObject else { throw malformed("\(here) is not an object") }
            let changed = try time(instance["StatusStartingTime"], "\(here).StatusStartingTime")
            history.append(StatusChange(status: try optionalString(instance["ServiceStatus"], "\(here).ServiceStatus"), start: changed))
        }
        return Service(entityName: entityName, name: name, type: try optionalString(information["ServiceTypeIdentifier"], "\(at).ServiceTypeIdentifier"),
                       status: status, statusStartingTime: start, history: history, certificates: certificates, otherIdentities: others,
                       position: position)
    }

    static func malformed(_ what: String) -> VerificationError { VerificationError(.loteMalformed, what) }

    /// A multilingual `[{lang, value}]` list's English text, else its first; nil when it is not such a list.
    static func text(_ node: JSONValue?) -> String? {
        guard let list = node?.array, !list.isEmpty else { return nil }
        var first: String?
        for item in list {
            guard let value = item["value"]?.string else { return nil }
            if item["lang"]?.string?.lowercased() == "en" { return value }
            if first == nil { first = value }
        }
        return first
    }

    static func optionalString(_ node: JSONValue?, _ field: String) throws(VerificationError) -> String? {
        switch node {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw malformed("\(field) is \(other.kind), not a string")
        }
    }

    /// A UTC date-time (`Z`; a fraction is accepted, as publishers emit one).
    static func time(_ node: JSONValue?, _ field: String) throws(VerificationError) -> RFC3339.Timestamp {
        guard let text = node?.string else { throw malformed("\(field) is missing or not a string") }
        guard let time = RFC3339.Timestamp(parsing: text) else {
            throw malformed("\(field) \(InputQuote.short(text)) is not an RFC 3339 date-time")
        }
        return time
    }
}
