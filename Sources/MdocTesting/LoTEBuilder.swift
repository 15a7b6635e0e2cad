import CryptoCore
import Foundation
import KitCertificates
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// Builds ETSI TS 119 602 Lists of Trusted Entities (JSON binding) signed by a seeded test scheme operator: a root CA
/// and a LoTE signer whose certificate goes in the JWS `x5c`, as compact JAdES (ES256/384/512 by `curve`). For testing
/// service types and status, docType scope, rollback and staleness with lists whose contents the test chooses, and
/// with `sign(header:payload:)` lists whose header or payload a test breaks on purpose.
public struct LoTEBuilder: Sendable {
    /// The PID providers list type of the EU profile (TS 119 602 Annex D).
    public static let pidListType = "http://uri.etsi.org/19602/LoTEType/EUPIDProvidersList"
    /// The PID issuance service type.
    public static let pidIssuance = "http://uri.etsi.org/19602/SvcType/PID/Issuance"
    /// The PID revocation service type.
    public static let pidRevocation = "http://uri.etsi.org/19602/SvcType/PID/Revocation"
    /// The mDL providers list type the European Commission publishes.
    public static let mdlListType = "http://trust.ec.europa.eu/lists/mDL/mDLProvidersListType"
    /// The mDL issuance service type.
    public static let mdlIssuance = "http://trust.ec.europa.eu/lists/mDL/SvcType/Issuance"
    /// Annex H's `withdrawn` status.
    public static let withdrawn = "http://uri.etsi.org/19602/PubEAAProvidersList/SvcStatus/withdrawn"
    /// Annex H's `notified` status.
    public static let notified = "http://uri.etsi.org/19602/PubEAAProvidersList/SvcStatus/notified"

    /// The scheme operator's root certificate, which a relying party pins to accept the lists.
    public let root: Certificate
    /// The LoTE signer certificate the root issued.
    public let signer: Certificate
    let signerKey: PrivateKey

    /// One service of one trusted entity.
    public struct Service: Sendable {
        /// The entity's `TEName`.
        public var entityName: String
        /// The `ServiceName`.
        public var name: String
        /// `ServiceTypeIdentifier`; nil leaves it out.
        public var type: String?
        /// `ServiceStatus`; nil leaves it out (active by being listed, as the EU profiles D–G).
        public var status: String?
        /// `StatusStartingTime`; nil leaves it out.
        public var statusStartingTime: Date?
        /// `ServiceHistory` instances (status and start), newest first.
        public var history: [(status: String, start: Date)]
        /// The X.509 certificates of `ServiceDigitalIdentity`.
        public var certificates: [Certificate]

        /// A service of `type` listing `certificates`, without status.
        public init(_ certificates: [Certificate], type: String? = LoTEBuilder.pidIssuance, entityName: String = "MdocTesting Provider",
                    name: String = "MdocTesting issuance", status: String? = nil, statusStartingTime: Date? = nil,
                    history: [(status: String, start: Date)] = []) {
            self.certificates = certificates
            self.type = type
            self.entityName = entityName
            self.name = name
            self.status = status
            self.statusStartingTime = statusStartingTime
            self.history = history
        }
    }

    /// Creates the seeded root and LoTE signer (on `curve`: P-256 signs ES256, P-384 ES384, P-521 ES512), valid from 1
    /// January of the year before `time` to 1 January five years after the year of `time`.
    ///
    /// Throws when a key cannot be derived or a certificate cannot be signed.
    public init(seed: UInt64 = 1, curve: Curve = .p256, at time: Date = Date()) throws {
        let material = SeedMaterial(seed)
        let rootKey = try material.key("lote/root", curve: curve)
        signerKey = try material.key("lote/signer", curve: curve)
        let validity = DateInterval(start: TestPKI.startOfYear(time, offset: -1), end: TestPKI.startOfYear(time, offset: 5))
        root = try CertificateBuilder.rootCA(subject: [("C", "EU"), ("O", "MdocTesting"), ("CN", "MdocTesting LoTE Root \(seed)")],
                                             serialNumber: material.serialNumber("lote/root"), validity: validity, key: rootKey)
        signer = try CertificateBuilder.signer(
            subject: [("C", "EU"), ("O", "MdocTesting"), ("CN", "MdocTesting LoTE Signer \(seed)")], serialNumber: material.serialNumber("lote/signer"),
            validity: validity, key: signerKey.publicKey, issuer: root, issuerKey: rootKey)
    }

    /// The JSON payload of a list: `{"LoTE": {"ListAndSchemeInformation", "TrustedEntitiesList"}}`, one entity per
    /// distinct `entityName`, in the order first named.
    public func payload(services: [Service], sequenceNumber: UInt64, issued: Date, nextUpdate: Date, type: String? = LoTEBuilder.pidListType,
                        operatorName: String = "MdocTesting Scheme Operator") -> JSONValue {
        func text(_ value: String) -> JSONValue { .array([.object([("lang", .string("en")), ("value", .string(value))])]) }
        var information: [(String, JSONValue)] = [
            ("LoTEVersionIdentifier", .int(1)), ("LoTESequenceNumber", .int(sequenceNumber)),
        ]
        if let type { information.append(("LoTEType", .string(type))) }
        information += [
            ("SchemeOperatorName", text(operatorName)), ("SchemeTerritory", .string("EU")),
            ("ListIssueDateTime", .string(RFC3339.format(issued))), ("NextUpdate", .string(RFC3339.format(nextUpdate))),
        ]
        var entities: [(name: String, services: [JSONValue])] = []
        for service in services {
            var fields: [(String, JSONValue)] = [
                ("ServiceName", text(service.name)),
                ("ServiceDigitalIdentity", .object([("X509Certificates", .array(service.certificates.map {
                    .object([("val", .string(Data($0.derEncoded).base64EncodedString()))])
                }))])),
            ]
            if let type = service.type { fields.append(("ServiceTypeIdentifier", .string(type))) }
            if let status = service.status { fields.append(("ServiceStatus", .string(status))) }
            if let start = service.statusStartingTime { fields.append(("StatusStartingTime", .string(RFC3339.format(start)))) }
            var item: [(String, JSONValue)] = [("ServiceInformation", .object(fields))]
            if !service.history.isEmpty {
                item.append(("ServiceHistory", .array(service.history.map {
                    .object([("ServiceName", text(service.name)), ("ServiceStatus", .string($0.status)),
                             ("StatusStartingTime", .string(RFC3339.format($0.start)))])
                })))
            }
            if let index = entities.firstIndex(where: { $0.name == service.entityName }) {
                entities[index].services.append(.object(item))
            } else {
                entities.append((service.entityName, [.object(item)]))
            }
        }
        let list = JSONValue.array(entities.map { entity in
            .object([("TrustedEntityInformation", .object([("TEName", text(entity.name))])), ("TrustedEntityServices", .array(entity.services))])
        })
        return .object([("LoTE", .object([("ListAndSchemeInformation", .object(information)), ("TrustedEntitiesList", list)]))])
    }

    /// A signed list: a compact JWS with `alg` by the signer's curve, `typ`, `cty`, `iat`, `x5t#o` and `x5c` = [signer, root].
    public func build(services: [Service], sequenceNumber: UInt64, issued: Date, nextUpdate: Date, type: String? = LoTEBuilder.pidListType,
                      operatorName: String = "MdocTesting Scheme Operator") throws -> [UInt8] {
        let payload = payload(services: services, sequenceNumber: sequenceNumber, issued: issued, nextUpdate: nextUpdate, type: type,
                              operatorName: operatorName)
        return try sign(header: standardHeader(signedAt: issued), payload: payload.serializedBytes())
    }

    /// The protected header `build` signs with: `alg`, `typ`, `cty`, `iat`, `x5t#o` (SHA-256 of the signer) and `x5c`.
    public func standardHeader(signedAt: Date) -> [(String, JSONValue)] {
        [("alg", .string(algorithm)), ("typ", .string("jose")), ("cty", .string("json")), ("iat", .int(Int64(signedAt.timeIntervalSince1970))),
         ("x5t#o", .object([("digAlg", .string("S256")), ("digVal", .string(Base64URL.encode(Digest.hash(.sha256, signer.derEncoded))))])),
         ("x5c", .array([signer, root].map { .string(Data($0.derEncoded).base64EncodedString()) }))]
    }

    /// The JWS `alg` of the signer's curve.
    public var algorithm: String { JWSAlgorithm(signingWith: signerKey.curve)?.rawValue ?? "ES256" }

    /// Signs `payload` (any bytes: tests pass broken JSON) under a protected header of exactly `header`, with the
    /// signer's key and digest whatever `alg` the header claims.
    public func sign(header: [(String, JSONValue)], payload: [UInt8]) throws -> [UInt8] {
        try sign(headerBytes: JSONValue.object(header).serializedBytes(), payload: payload)
    }

    /// Signs `payload` under a protected header of exactly `headerBytes` (tests pass headers with a repeated member).
    public func sign(headerBytes: [UInt8], payload: [UInt8]) throws -> [UInt8] {
        let input = Base64URL.encode(headerBytes) + "." + Base64URL.encode(payload)
        let digest = signerKey.curve.ecdsaDigest ?? .sha256
        let signature = try signerKey.signature(for: Array(input.utf8), digest: digest)
        return Array((input + "." + Base64URL.encode(signature)).utf8)
    }
}
