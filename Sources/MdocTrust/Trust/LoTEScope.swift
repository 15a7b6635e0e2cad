import CryptoCore
import Foundation
import MdocModel

/// Which docTypes the services of a LoTE may anchor: the operator maps a service type URI
/// (`http://uri.etsi.org/19602/SvcType/PID/Issuance`) or a list type URI (`…/LoTEType/EUPIDProvidersList`) to docTypes.
/// A list type's mapping covers the list's issuance services (a type ending in `/Issuance`, or none) — never its
/// revocation services, whose certificates sign status lists, not documents. A service type's own mapping wins.
/// Services of a type mapped to nothing anchor nothing.
public struct LoTEScope: Sendable, Equatable {
    /// docTypes by service type or list type URI.
    public let docTypes: [String: [String]]

    /// A scope of `docTypes` by URI.
    public init(_ docTypes: [String: [String]]) {
        self.docTypes = docTypes
    }

    /// Reads `URI=docType[,docType…]` entries (repeatable; the same URI twice merges its docTypes). The URI is split at
    /// its last `=`.
    ///
    /// - Throws: `input.malformed` naming an entry without `=`, an empty URI or no docType.
    public init(parsing entries: [String]) throws(VerificationError) {
        var map: [String: [String]] = [:]
        for entry in entries {
            guard let split = entry.lastIndex(of: "="), split != entry.startIndex else {
                throw VerificationError(.inputMalformed, "doctype map entry \(InputQuote.short(entry)) is not URI=docType[,docType]; e.g. "
                                        + "http://uri.etsi.org/19602/SvcType/PID/Issuance=eu.europa.ec.eudi.pid.1")
            }
            let uri = String(entry[..<split]).trimmingCharacters(in: .whitespaces)
            let types = entry[entry.index(after: split)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !uri.isEmpty, !types.isEmpty else {
                throw VerificationError(.inputMalformed, "doctype map entry \(InputQuote.short(entry)) names no URI or no docType")
            }
            for type in types where !(map[uri] ?? []).contains(type) { map[uri, default: []].append(type) }
        }
        docTypes = map
    }

    /// The docTypes `service` of `lote` may anchor; empty when neither its type nor the list's type is mapped.
    public func docTypes(for service: LoTE.Service, in lote: LoTE) -> [String] {
        if let type = service.type, let mapped = docTypes[type] { return mapped }
        let issuance = service.type.map { $0.hasSuffix("/Issuance") } ?? true
        if issuance, let listType = lote.type, let mapped = docTypes[listType] { return mapped }
        return []
    }
}

extension LoTEVerification {
    /// What became of one service when the list was turned into anchors.
    public enum Outcome: Sendable, Equatable {
        /// Its certificates anchor these docTypes.
        case anchored(docTypes: [String])
        /// Not active at the verification time (withdrawn, an unknown status, or a status that starts later); the
        /// reason says which.
        case inactive(String)
        /// Its type (and the list's) is mapped to no docType.
        case unmapped
        /// It names no X.509 certificate (only key identifiers, names or raw keys, which never anchor).
        case noCertificate
    }

    /// One service and its outcome.
    public struct Decision: Sendable {
        /// The service as listed.
        public let service: LoTE.Service
        /// What became of it.
        public let outcome: Outcome
    }

    /// One trust anchor a LoTE yields: a service certificate and the docTypes it may anchor.
    public struct Anchor: Sendable {
        /// A certificate of an active, mapped service: a CA anchors paths, an end-entity certificate anchors only itself.
        public let certificate: Certificate
        /// The docTypes it may anchor.
        public let docTypes: [String]
        /// The service that lists it.
        public let service: LoTE.Service
    }

    /// Status URIs (by their last path segment) under which a service is active: TS 119 602 Annex H `notified`, and
    /// TS 119 612's `granted` and `recognisedatnationallevel`. Any other status (`withdrawn`, unknown values) is not.
    static let activeStatuses: Set<String> = ["notified", "granted", "recognisedatnationallevel"]

    /// Whether `service` is active at `time`, and if not why. A service without `ServiceStatus` is active by being
    /// listed (the EU profiles D–G). A status that starts after `time` does not count yet: the newest history instance
    /// that started by then decides, and without one the service is not active.
    public static func status(of service: LoTE.Service, at time: Date) -> (active: Bool, reason: String) {
        if service.status == nil, service.statusStartingTime == nil { return (true, "listed without a status") }
        var effective: LoTE.StatusChange?
        if service.statusStartingTime.map({ $0.date <= time }) ?? true {
            effective = LoTE.StatusChange(status: service.status, start: service.statusStartingTime ?? RFC3339.Timestamp(seconds: 0))
        } else {
            effective = service.history.filter { $0.start.date <= time }.max { $0.start < $1.start }
        }
        guard let effective else {
            let start = service.statusStartingTime.map { "\($0)" } ?? "-"
            return (false, "its status starts only at \(start), after the verification time, and no earlier status is listed")
        }
        guard let status = effective.status else { return (true, "listed without a status") }
        let name = status.split(separator: "/").last.map { String($0).lowercased() } ?? ""
        if activeStatuses.contains(name) { return (true, "status \(name) since \(effective.start)") }
        return (false, "status \(InputQuote.short(status)) since \(effective.start)")
    }

    /// What becomes of every service under `scope` at the verification time.
    public func decisions(scope: LoTEScope) -> [Decision] {
        lote.services.map { service in
            let docTypes = scope.docTypes(for: service, in: lote)
            guard !docTypes.isEmpty else { return Decision(service: service, outcome: .unmapped) }
            let status = Self.status(of: service, at: time)
            guard status.active else { return Decision(service: service, outcome: .inactive(status.reason)) }
            guard !service.certificates.isEmpty else { return Decision(service: service, outcome: .noCertificate) }
            return Decision(service: service, outcome: .anchored(docTypes: docTypes))
        }
    }

    /// The trust anchors of the list under `scope`: each certificate of each active, mapped service once, with the
    /// union of the docTypes of the services that list it.
    public func anchors(scope: LoTEScope) -> [Anchor] {
        var anchors: [Anchor] = []
        for decision in decisions(scope: scope) {
            guard case .anchored(let docTypes) = decision.outcome else { continue }
            for certificate in decision.service.certificates {
                if let index = anchors.firstIndex(where: { $0.certificate == certificate }) {
                    let merged = anchors[index].docTypes + docTypes.filter { !anchors[index].docTypes.contains($0) }
                    anchors[index] = Anchor(certificate: certificate, docTypes: merged, service: anchors[index].service)
                } else {
                    anchors.append(Anchor(certificate: certificate, docTypes: docTypes, service: decision.service))
                }
            }
        }
        return anchors
    }

    /// How the list names itself in a report: `LoTE <operator> <type's last segment> sequence <n> of <issue time>`.
    public var sourceName: String {
        let type = lote.type.flatMap { $0.split(separator: "/").last.map(String.init) }
        return "LoTE \(lote.operatorName)" + (type.map { " \($0)" } ?? "") + " sequence \(lote.sequenceNumber) of \(lote.issueDate)"
    }

    /// How an anchor of this list is recorded in a trust store: its docTypes, the list's name and NextUpdate.
    public func provenance(of anchor: Anchor) -> AnchorProvenance {
        AnchorProvenance(docTypes: anchor.docTypes, source: sourceName, listNextUpdate: lote.nextUpdate.date)
    }
}
