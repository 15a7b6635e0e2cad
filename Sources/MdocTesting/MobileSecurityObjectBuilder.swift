import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// `MobileSecurityObject` (ISO/IEC 18013-5 §9.1.2.4), encoded as `MobileSecurityObjectBytes` (tag 24).
public struct MobileSecurityObjectBuilder: Sendable {
    /// The MSO's `validityInfo`: when it was signed, its validity period and the optional expected update.
    public struct ValidityInfo: Sendable, Equatable {
        /// When the issuer signed the MSO (`signed`).
        public var signed: Date
        /// Start of the MSO's validity (`validFrom`).
        public var validFrom: Date
        /// End of the MSO's validity (`validUntil`).
        public var validUntil: Date
        /// When the issuer expects to re-sign the MSO (`expectedUpdate`); nil leaves it out.
        public var expectedUpdate: Date?

        /// Creates validity information; dates are written in whole seconds.
        public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date? = nil) {
            self.signed = signed
            self.validFrom = validFrom
            self.validUntil = validUntil
            self.expectedUpdate = expectedUpdate
        }
    }

    /// `keyAuthorizations`: namespaces and single elements the device key may sign.
    public struct KeyAuthorizations: Sendable, Equatable {
        /// Namespaces in which the device key may sign every element.
        public var nameSpaces: [String]
        /// Single elements the device key may sign, by namespace.
        public var dataElements: [String: [String]]

        /// Creates key authorizations; an empty list is left out of the MSO.
        public init(nameSpaces: [String] = [], dataElements: [String: [String]] = [:]) {
            self.nameSpaces = nameSpaces
            self.dataElements = dataElements
        }
    }

    /// The MSO's `version`, "1.0" by default.
    public var version = "1.0"
    /// The MSO's `digestAlgorithm` as written ("SHA-256", "SHA-384", "SHA-512"; anything else for fault tests).
    public var digestAlgorithm: String
    /// The MSO's `valueDigests`: namespace → (digestID, digest), in encoding order.
    public var valueDigests: [(nameSpace: String, digests: [(id: UInt64, digest: [UInt8])])]
    /// The device public key the MSO binds (`deviceKeyInfo.deviceKey`).
    public var deviceKey: PublicKey
    /// What the device key may sign (`deviceKeyInfo.keyAuthorizations`); nil leaves it out.
    public var keyAuthorizations: KeyAuthorizations?
    /// The docType the MSO names.
    public var docType: String
    /// The MSO's `validityInfo`.
    public var validity: ValidityInfo
    /// Entries the standard does not define (unknown keys a verifier must ignore).
    public var extraEntries: [(CBORValue, CBORValue)] = []

    /// Creates an MSO builder with version "1.0" and no extra entries.
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

    /// The MSO as a CBOR map: version, digestAlgorithm, valueDigests, deviceKeyInfo, docType and validityInfo, then
    /// `extraEntries`.
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
