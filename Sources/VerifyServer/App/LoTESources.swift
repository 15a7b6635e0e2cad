import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// An ETSI TS 119 602 List of Trusted Entities (a file, or a URL the server downloads), the signer root pinned to
/// verify it, and the docTypes the services of its mapped service types (or list types) may anchor.
public struct LoTESource: Sendable, Equatable {
    /// The path of the LoTE file (a compact JWS, or its JSON serialization); empty for a source with a `url`.
    public var file: String
    /// The http(s) URL the LoTE is downloaded from (through the list fetcher's destination policy and size limit), its
    /// last good copy kept in `vicalCacheDirectory`; nil for a file.
    public var url: String?
    /// Seconds between downloads of a `url` source (default 3600, 60 to 86400; each wait varies by up to a tenth).
    public var refresh: TimeInterval = 3600
    /// The path of the PEM (or DER) file holding the pinned signer root: the scheme operator's signer certificate or the
    /// CA that issued it.
    public var root: String
    /// The service type URIs (`http://uri.etsi.org/19602/SvcType/PID/Issuance`) or list type URIs (their issuance
    /// services) whose services anchor `docTypes`.
    public var serviceTypes: [String]
    /// The docTypes those services may anchor.
    public var docTypes: [String]
    /// Accept a list with a lower `LoTESequenceNumber` than the highest this server accepted for its operator and list
    /// type: the operator rolls back on purpose. Off by default (`lote.rollback`).
    public var allowRollback = false

    /// Creates a source from the list's path, its pinned root's path and its mapping.
    public init(file: String, root: String, serviceTypes: [String], docTypes: [String], allowRollback: Bool = false) {
        self.file = file
        self.root = root
        self.serviceTypes = serviceTypes
        self.docTypes = docTypes
        self.allowRollback = allowRollback
    }

    /// Creates a source the server downloads from `url` every `refresh` seconds.
    public init(url: String, root: String, serviceTypes: [String], docTypes: [String], refresh: TimeInterval = 3600,
                allowRollback: Bool = false) {
        self.init(file: "", root: root, serviceTypes: serviceTypes, docTypes: docTypes, allowRollback: allowRollback)
        self.url = url
        self.refresh = refresh
    }

    /// The file or the URL (without user info, query or fragment), as logs, problems and `/readyz` name the source.
    var name: String { TrustList.lote(self).name }

    /// The mapping as `LoTEVerification` reads it.
    public var scope: LoTEScope { LoTEScope(Dictionary(serviceTypes.map { ($0, docTypes) }, uniquingKeysWith: { first, _ in first })) }

    /// The entries of `lotes`: from a file, objects `{file or url, root, refresh, serviceTypes, docTypes,
    /// allowRollback}` (the two lists as YAML lists or comma-separated text); from the environment,
    /// `FILE=ROOT=TYPE=DOCTYPE` or `URL=ROOT=TYPE=DOCTYPE` entries separated by commas (split at the last three `=`, so a
    /// URL's query may hold one).
    static func list(from value: ConfigurationValue) throws(ConfigurationValueError) -> [LoTESource] {
        guard let objects = value.objectList else {
            return try value.list().map { entry throws(ConfigurationValueError) in
                let parts = entry.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 4, parts.suffix(3).allSatisfy({ !$0.isEmpty }), !parts[0].isEmpty else {
                    throw ConfigurationValueError("every entry is `FILE=ROOT=SERVICE_TYPE=DOCTYPE` (or `URL=…`) or an object with `file` "
                                                  + "or `url`, `root`, `serviceTypes` and `docTypes`")
                }
                let location = parts.dropLast(3).joined(separator: "="), root = parts[parts.count - 3]
                let serviceTypes = [parts[parts.count - 2]], docTypes = [parts[parts.count - 1]]
                return TrustListEntry.isURL(location) ? LoTESource(url: location, root: root, serviceTypes: serviceTypes, docTypes: docTypes)
                                                      : LoTESource(file: location, root: root, serviceTypes: serviceTypes, docTypes: docTypes)
            }
        }
        let known: Set<String> = ["file", "url", "root", "refresh", "serviceTypes", "docTypes", "allowRollback"]
        return try objects.map { object throws(ConfigurationValueError) in
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw ConfigurationValueError("entries know `file` or `url`, `root`, `refresh`, `serviceTypes`, `docTypes` and "
                                              + "`allowRollback`, not \(InputQuote.short(unknown))")
            }
            let entry = try TrustListEntry(object, rootHint: " (the pinned signer PEM)")
            func items(_ key: String) -> [String] {
                (object[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            let serviceTypes = items("serviceTypes"), docTypes = items("docTypes")
            guard !serviceTypes.isEmpty, !docTypes.isEmpty else {
                throw ConfigurationValueError("every entry needs `serviceTypes` (service or list type URIs) and `docTypes` (what their "
                                              + "services may anchor); a list mapped to nothing would trust nothing")
            }
            guard let url = entry.url else {
                return LoTESource(file: entry.file, root: entry.root, serviceTypes: serviceTypes, docTypes: docTypes,
                                  allowRollback: entry.allowRollback)
            }
            return LoTESource(url: url, root: entry.root, serviceTypes: serviceTypes, docTypes: docTypes, refresh: entry.refresh ?? 3600,
                              allowRollback: entry.allowRollback)
        }
    }
}

extension TrustLoader {
    /// What `/readyz` says about one loaded LoTE.
    struct LoadedLoTE: Sendable, LoadedList {
        let source: LoTESource
        let operatorName: String
        let type: String?
        let sequenceNumber: UInt64
        /// The rollback mark's key in the store (`lote:<operator>|<type>`), beside the VICAL providers'.
        let rollbackKey: String
        let issued: RFC3339.Timestamp
        let nextUpdate: RFC3339.Timestamp
        /// How many services the list names, and how many of them became anchors.
        let services: Int
        let anchoredServices: Int
        let anchors: Int
        let anchoring: Bool

        var listNextUpdate: Date? { nextUpdate.date }
    }

    /// Verifies every configured LoTE (a file, or the last good copy of a downloaded one) and adds its anchors (scoped to
    /// the mapped docTypes) to `gathered`; a file that does not verify is a problem (it refuses the start or the reload),
    /// a downloaded list without a usable copy is `pending`. The stale policy is the VICALs' one.
    static func loadLoTEs(_ configuration: ServerConfiguration, at time: Date, gathered: inout Gathered, pending: inout [Pending],
                          problems: inout [String]) -> [LoadedLoTE] {
        var loaded: [LoadedLoTE] = []
        for source in configuration.lotes {
            guard case .lote(let verified)? = Self.verified(.lote(source), configuration: configuration, at: time, pending: &pending,
                                                            problems: &problems) else { continue }
            let stale = verified.freshness != .fresh
            let anchoring = !(stale && configuration.vicalStalePolicy == .refuse)
            let listAnchors = verified.anchors(scope: source.scope)
            if anchoring {
                for anchor in listAnchors {
                    gathered.adopt(anchor.certificate, docTypes: anchor.docTypes, recorded: verified.provenance(of: anchor),
                                   origin: "lote \(source.name)", policy: configuration.vicalStalePolicy)
                }
            }
            let anchored = verified.decisions(scope: source.scope).filter { if case .anchored = $0.outcome { true } else { false } }.count
            loaded.append(LoadedLoTE(source: source, operatorName: verified.lote.operatorName, type: verified.lote.type,
                                     sequenceNumber: verified.lote.sequenceNumber, rollbackKey: verified.lote.rollbackKey,
                                     issued: verified.lote.issueDate, nextUpdate: verified.lote.nextUpdate, services: verified.lote.services.count,
                                     anchoredServices: anchored, anchors: listAnchors.count, anchoring: anchoring))
        }
        return loaded
    }
}

extension RuntimeBox {
    /// `/readyz`'s `lotes`: per loaded list its operator, type, sequence, dates, staleness now, how many services and
    /// anchors it yields, whether they are trusted, its source and, for a downloaded one, the last refresh and the last
    /// error's category; `warning` says what is wrong in words.
    func loteReadiness(_ runtime: VerifierRuntime) -> JSONValue {
        let time = runtime.trustTime()
        return .array(runtime.lotes.map { lote in
            let stale = lote.isStale(at: time)
            let trusted = lote.isTrusted(at: time, policy: runtime.configuration.vicalStalePolicy)
            var warnings: [String] = []
            if stale {
                warnings.append("stale since its NextUpdate \(lote.nextUpdate); " + StaleListWording.anchors(trusted: trusted, noun: "anchors"))
            }
            if lote.anchors == 0 {
                warnings.append("no active service of the mapped serviceTypes lists a certificate: the list anchors nothing")
            }
            return listReadiness(.lote(lote.source), warnings: warnings, fields: [
                ("operator", .string(lote.operatorName)),
                ("loteType", lote.type.map(JSONValue.string) ?? .null),
                ("sequenceNumber", .int(lote.sequenceNumber)),
                ("issued", .string(lote.issued.description)),
                ("nextUpdate", .string(lote.nextUpdate.description)),
                ("stale", .bool(stale)),
                ("services", .int(UInt64(lote.services))),
                ("anchoredServices", .int(UInt64(lote.anchoredServices))),
                ("anchors", .int(UInt64(lote.anchors))),
                ("docTypes", .array(lote.source.docTypes.map(JSONValue.string))),
                ("trusted", .bool(trusted && lote.anchors > 0)),
                ("source", .string(lote.source.name)),
            ])
        })
    }

    /// One `lote.rollback` problem per LoTE of `runtime` with a lower sequence than was accepted for its operator and list
    /// type, unless its source allows it.
    static func loteRollbacks(_ runtime: VerifierRuntime, against highest: [String: UInt64]) -> [String] {
        runtime.lotes.compactMap { lote in
            guard !lote.source.allowRollback, let previous = highest[lote.rollbackKey], lote.sequenceNumber < previous else { return nil }
            return "lote \(lote.source.name): lote.rollback: sequence \(lote.sequenceNumber) of \(lote.operatorName)'s \(lote.type ?? "list") is "
                + "older than sequence \(previous) this server accepted before; set allowRollback: true on this LoTE to accept it on purpose"
        }
    }
}
