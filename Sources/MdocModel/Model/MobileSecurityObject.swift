import CBOR
import CryptoCore
import Foundation

/// `MobileSecurityObject` (ISO/IEC 18013-5 §9.1.2.4), decoded from the tag-24 issuerAuth payload. A class of
/// constants: every check that needs the MSO receives it (docs/performance.md).
package final class MobileSecurityObject: Sendable {
    /// The four tdates as written (to the nanosecond), with `Date`s for comparisons; released as is.
    package typealias ValidityInfo = VerifiedDocument.Validity

    package struct KeyAuthorizations: Sendable {
        package let nameSpaces: Set<String>
        package let dataElements: [String: Set<String>]

        package func allows(nameSpace: String, element: String) -> Bool {
            nameSpaces.contains(nameSpace) || dataElements[nameSpace]?.contains(element) == true
        }
    }

    package let version: String
    /// As written in the MSO; `digestAlgorithm` is nil when it is not one we support.
    package let digestAlgorithmName: String
    package let digestAlgorithm: DigestAlgorithm?
    /// namespace → digestID → digest.
    package let valueDigests: ValueDigests
    package let deviceKey: CBORItem
    package let keyAuthorizations: KeyAuthorizations?
    package let docType: String
    package let validityInfo: ValidityInfo
    /// `status` (second edition §9.1.2.6) as received; `MSOStatus` reads it in the revocation check.
    package let status: CBORItem?

    /// Decodes the MSO from `MobileSecurityObjectBytes` (the issuerAuth payload, `#6.24(bstr .cbor MSO)`) within
    /// `limits` (the issuerAuth's own, `COSEMessage.decodingLimits`).
    package init(payload: ArraySlice<UInt8>, limits: CBORLimits) throws(VerificationError) {
        let item: CBORItem
        do {
            let outer = try CBORDecoder.decode(payload, options: .mdoc(limits: limits))
            item = try outer.decodeEmbedded().item
        } catch {
            throw Self.malformed("issuerAuth payload is not #6.24(bstr .cbor MobileSecurityObject): \(error)")
        }
        guard item.isMap else { throw Self.malformed("MSO is not a map") }
        guard let version = item["version"]?.text else { throw Self.malformed("MSO has no text `version`") }
        guard let digestName = item["digestAlgorithm"]?.text else { throw Self.malformed("MSO has no text `digestAlgorithm`") }
        guard let docType = item["docType"]?.text else { throw Self.malformed("MSO has no text `docType`") }
        guard let keyInfo = item["deviceKeyInfo"], keyInfo.isMap, let deviceKey = keyInfo["deviceKey"] else {
            throw Self.malformed("MSO has no `deviceKeyInfo.deviceKey`")
        }
        let algorithm = DigestAlgorithm(rawValue: digestName)
        self.version = version
        self.digestAlgorithmName = digestName
        self.digestAlgorithm = algorithm
        self.valueDigests = try Self.valueDigests(item["valueDigests"], algorithm: algorithm)
        self.deviceKey = deviceKey
        self.keyAuthorizations = try Self.keyAuthorizations(keyInfo["keyAuthorizations"])
        self.docType = docType
        self.validityInfo = try Self.validityInfo(item["validityInfo"])
        self.status = item["status"]
    }

    static func malformed(_ what: String) -> VerificationError { VerificationError(.msoMalformed, what) }

    /// `valueDigests`: namespace → digestID → digest. Every digest, disclosed or not, has the algorithm's length.
    static func valueDigests(_ node: CBORItem?, algorithm: DigestAlgorithm?) throws(VerificationError) -> ValueDigests {
        guard let entries = node?.map else { throw malformed("MSO has no `valueDigests` map") }
        guard entries.count <= ResponseLimits.maxNameSpaces else {
            throw malformed(ResponseLimits.over("valueDigests", count: entries.count, limit: ResponseLimits.maxNameSpaces, name: "maxNameSpaces"))
        }
        let total = entries.indices.reduce(0) { $0 + (entries.value($1).map?.count ?? 0) }
        guard total <= ResponseLimits.maxDigests else {
            throw malformed(ResponseLimits.over("valueDigests (digests)", count: total, limit: ResponseLimits.maxDigests, name: "maxDigests"))
        }
        var nameSpaces: [(name: String, digests: ValueDigests.NameSpace)] = []
        nameSpaces.reserveCapacity(entries.count)
        for index in entries.indices {
            guard let nameSpace = entries.textKey(index), let ids = entries.value(index).map else {
                throw malformed("valueDigests is not namespace → {digestID → digest}")
            }
            // Read in place: the digests stay rows of the MSO's table, looked up when they are checked.
            var keys: [UInt64] = []
            keys.reserveCapacity(ids.count)
            for position in ids.indices {
                guard let id = ids.unsignedKey(position), let length = ids.valueByteCount(position) else {
                    throw malformed("valueDigests entry is not uint → bstr")
                }
                if let algorithm, length != algorithm.outputByteCount {
                    throw malformed("valueDigests[\(nameSpace)][\(id)] is \(length) bytes; \(algorithm.rawValue) digests are "
                                    + "\(algorithm.outputByteCount)")
                }
                keys.append(id)
            }
            nameSpaces.append((nameSpace, ValueDigests.NameSpace(ids, ids: keys)))
        }
        return ValueDigests(nameSpaces)
    }

    /// `keyAuthorizations` (optional): namespaces and/or namespace → element identifiers.
    static func keyAuthorizations(_ node: CBORItem?) throws(VerificationError) -> KeyAuthorizations? {
        guard let node else { return nil }
        guard node.isMap else { throw malformed("keyAuthorizations is not a map") }
        var nameSpaces: Set<String> = []
        if let list = node["nameSpaces"] {
            guard let array = list.array else { throw malformed("keyAuthorizations.nameSpaces is not an array") }
            for entry in array {
                guard let text = entry.text else { throw malformed("keyAuthorizations.nameSpaces holds a non-text entry") }
                nameSpaces.insert(text)
            }
        }
        var elements: [String: Set<String>] = [:]
        if let map = node["dataElements"] {
            guard let entries = map.map else { throw malformed("keyAuthorizations.dataElements is not a map") }
            for entry in entries {
                guard let nameSpace = entry.key.text, let ids = entry.value.array else {
                    throw malformed("keyAuthorizations.dataElements is not namespace → [identifier]")
                }
                var set: Set<String> = []
                for id in ids {
                    guard let text = id.text else { throw malformed("keyAuthorizations.dataElements holds a non-text identifier") }
                    set.insert(text)
                }
                elements[nameSpace] = set
            }
        }
        return KeyAuthorizations(nameSpaces: nameSpaces, dataElements: elements)
    }

    /// `validityInfo`: signed, validFrom, validUntil and the optional expectedUpdate, each a tdate.
    static func validityInfo(_ node: CBORItem?) throws(VerificationError) -> ValidityInfo {
        guard let validity = node, validity.isMap else { throw malformed("MSO has no `validityInfo` map") }
        func date(_ key: String) throws(VerificationError) -> RFC3339.Timestamp? {
            guard let node = validity[key] else { return nil }
            guard let (tag, inner) = node.tag, tag == 0, let text = inner.text, let parsed = RFC3339.Timestamp(parsing: text) else {
                throw malformed("validityInfo.\(key) is not a tdate (tag 0 RFC 3339)")
            }
            return parsed
        }
        func required(_ key: String) throws(VerificationError) -> RFC3339.Timestamp {
            guard let value = try date(key) else { throw malformed("validityInfo has no `\(key)`") }
            return value
        }
        return ValidityInfo(signedAt: try required("signed"), validFromAt: try required("validFrom"),
                            validUntilAt: try required("validUntil"), expectedUpdateAt: try date("expectedUpdate"))
    }
}
