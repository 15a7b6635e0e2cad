import CBOR
import CryptoCore
import Foundation
import Mdoc

/// `MobileSecurityObject` (ISO/IEC 18013-5 §9.1.2.4), encoded as `MobileSecurityObjectBytes` (tag 24).
public struct MobileSecurityObjectBuilder: Sendable {
    public struct ValidityInfo: Sendable, Equatable {
        public var signed: Date
        public var validFrom: Date
        public var validUntil: Date
        public var expectedUpdate: Date?

        public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date? = nil) {
            self.signed = signed
            self.validFrom = validFrom
            self.validUntil = validUntil
            self.expectedUpdate = expectedUpdate
        }
    }

    /// `keyAuthorizations`: namespaces and single elements the device key may sign.
    public struct KeyAuthorizations: Sendable, Equatable {
        public var nameSpaces: [String]
        public var dataElements: [String: [String]]

        public init(nameSpaces: [String] = [], dataElements: [String: [String]] = [:]) {
            self.nameSpaces = nameSpaces
            self.dataElements = dataElements
        }
    }

    public var version = "1.0"
    /// As written in the MSO ("SHA-256", "SHA-384", "SHA-512"; anything else for fault tests).
    public var digestAlgorithm: String
    /// namespace → (digestID, digest), in encoding order.
    public var valueDigests: [(nameSpace: String, digests: [(id: UInt64, digest: [UInt8])])]
    public var deviceKey: PublicKey
    public var keyAuthorizations: KeyAuthorizations?
    public var docType: String
    public var validity: ValidityInfo
    /// Entries the standard does not define (unknown keys a verifier must ignore).
    public var extraEntries: [(CBORValue, CBORValue)] = []

    public init(digestAlgorithm: String, valueDigests: [(nameSpace: String, digests: [(id: UInt64, digest: [UInt8])])],
                deviceKey: PublicKey, keyAuthorizations: KeyAuthorizations? = nil, docType: String, validity: ValidityInfo) {
        self.digestAlgorithm = digestAlgorithm
        self.valueDigests = valueDigests
        self.deviceKey = deviceKey
        self.keyAuthorizations = keyAuthorizations
        self.docType = docType
        self.validity = validity
    }

    /// `tdate`: tag 0 around RFC 3339 text in whole seconds (no fractions, §9.1.2.4).
    public static func tdate(_ date: Date) -> CBORValue {
        .tagged(0, .text(RFC3339.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))))
    }

    public var value: CBORValue {
        var keyInfo: [(CBORValue, CBORValue)] = [(.text("deviceKey"), COSEKey.encode(deviceKey))]
        if let keyAuthorizations {
            var entries: [(CBORValue, CBORValue)] = []
            if !keyAuthorizations.nameSpaces.isEmpty {
                entries.append((.text("nameSpaces"), .array(keyAuthorizations.nameSpaces.map { .text($0) })))
            }
            if !keyAuthorizations.dataElements.isEmpty {
                entries.append((.text("dataElements"), .map(keyAuthorizations.dataElements.sorted { $0.key < $1.key }.map {
                    (.text($0.key), .array($0.value.map { .text($0) }))
                })))
            }
            keyInfo.append((.text("keyAuthorizations"), .map(entries)))
        }
        var validityEntries: [(CBORValue, CBORValue)] = [
            (.text("signed"), Self.tdate(validity.signed)),
            (.text("validFrom"), Self.tdate(validity.validFrom)),
            (.text("validUntil"), Self.tdate(validity.validUntil)),
        ]
        if let expected = validity.expectedUpdate {
            validityEntries.append((.text("expectedUpdate"), Self.tdate(expected)))
        }
        return .map([
            (.text("version"), .text(version)),
            (.text("digestAlgorithm"), .text(digestAlgorithm)),
            (.text("valueDigests"), .map(valueDigests.map { entry in
                (.text(entry.nameSpace), .map(entry.digests.map { (.unsigned($0.id), .bytes($0.digest)) }))
            })),
            (.text("deviceKeyInfo"), .map(keyInfo)),
            (.text("docType"), .text(docType)),
            (.text("validityInfo"), .map(validityEntries)),
        ] + extraEntries)
    }

    /// `MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject)`: the issuerAuth payload.
    public func encode(style: CBOREncodingStyle = .preferred) -> [UInt8] {
        CBOREncoder.encode(.tagged(24, .bytes(style.encode(value))))
    }
}
