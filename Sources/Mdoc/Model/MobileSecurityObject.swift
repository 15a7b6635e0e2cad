import CBOR
import CryptoCore
import Foundation

/// `MobileSecurityObject` (ISO/IEC 18013-5 §9.1.2.4), decoded from the tag-24 issuerAuth payload.
package struct MobileSecurityObject: Sendable {
    package struct ValidityInfo: Sendable {
        package let signed: Date
        package let validFrom: Date
        package let validUntil: Date
        package let expectedUpdate: Date?
    }

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
    package let valueDigests: [String: [UInt64: ArraySlice<UInt8>]]
    package let deviceKey: CBORItem
    package let keyAuthorizations: KeyAuthorizations?
    package let docType: String
    package let validityInfo: ValidityInfo

    /// Decodes the MSO from `MobileSecurityObjectBytes` (the issuerAuth payload, `#6.24(bstr .cbor MSO)`).
    package init(payload: ArraySlice<UInt8>) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.msoMalformed, what) }
        let item: CBORItem
        do {
            let outer = try CBORDecoder.decode(payload)
            item = try outer.decodeEmbedded().item
        } catch {
            throw malformed("issuerAuth payload is not #6.24(bstr .cbor MobileSecurityObject): \(error)")
        }
        guard item.map != nil else { throw malformed("MSO is not a map") }
        guard let version = item["version"]?.text else { throw malformed("MSO has no text `version`") }
        guard let digestName = item["digestAlgorithm"]?.text else { throw malformed("MSO has no text `digestAlgorithm`") }
        guard let docType = item["docType"]?.text else { throw malformed("MSO has no text `docType`") }
        guard let digestsNode = item["valueDigests"]?.map else { throw malformed("MSO has no `valueDigests` map") }
        var digests: [String: [UInt64: ArraySlice<UInt8>]] = [:]
        for entry in digestsNode {
            guard let ns = entry.key.text, let ids = entry.value.map else {
                throw malformed("valueDigests is not namespace → {digestID → digest}")
            }
            var table: [UInt64: ArraySlice<UInt8>] = [:]
            table.reserveCapacity(ids.count)
            for pair in ids {
                guard let id = pair.key.uint, let digest = pair.value.bytes else {
                    throw malformed("valueDigests entry is not uint → bstr")
                }
                table[id] = digest
            }
            digests[ns] = table
        }
        guard let keyInfo = item["deviceKeyInfo"], keyInfo.map != nil, let deviceKey = keyInfo["deviceKey"] else {
            throw malformed("MSO has no `deviceKeyInfo.deviceKey`")
        }
        var authorizations: KeyAuthorizations? = nil
        if let node = keyInfo["keyAuthorizations"] {
            guard node.map != nil else { throw malformed("keyAuthorizations is not a map") }
            var nameSpaces: Set<String> = []
            if let list = node["nameSpaces"] {
                guard let array = list.array else { throw malformed("keyAuthorizations.nameSpaces is not an array") }
                for ns in array {
                    guard let text = ns.text else { throw malformed("keyAuthorizations.nameSpaces holds a non-text entry") }
                    nameSpaces.insert(text)
                }
            }
            var elements: [String: Set<String>] = [:]
            if let map = node["dataElements"] {
                guard let entries = map.map else { throw malformed("keyAuthorizations.dataElements is not a map") }
                for entry in entries {
                    guard let ns = entry.key.text, let ids = entry.value.array else {
                        throw malformed("keyAuthorizations.dataElements is not namespace → [identifier]")
                    }
                    var set: Set<String> = []
                    for id in ids {
                        guard let text = id.text else { throw malformed("keyAuthorizations.dataElements holds a non-text identifier") }
                        set.insert(text)
                    }
                    elements[ns] = set
                }
            }
            authorizations = KeyAuthorizations(nameSpaces: nameSpaces, dataElements: elements)
        }
        guard let validity = item["validityInfo"], validity.map != nil else { throw malformed("MSO has no `validityInfo` map") }
        func date(_ key: String, required: Bool) throws(VerificationError) -> Date? {
            guard let node = validity[key] else {
                if required { throw malformed("validityInfo has no `\(key)`") }
                return nil
            }
            guard let (tag, inner) = node.tag, tag == 0, let text = inner.text, let parsed = RFC3339.parseDateTime(text) else {
                throw malformed("validityInfo.\(key) is not a tdate (tag 0 RFC 3339)")
            }
            return parsed
        }
        guard let signed = try date("signed", required: true),
              let validFrom = try date("validFrom", required: true),
              let validUntil = try date("validUntil", required: true)
        else { throw malformed("validityInfo is incomplete") }
        let expected = try date("expectedUpdate", required: false)

        self.version = version
        self.digestAlgorithmName = digestName
        self.digestAlgorithm = DigestAlgorithm(rawValue: digestName)
        self.valueDigests = digests
        self.deviceKey = deviceKey
        self.keyAuthorizations = authorizations
        self.docType = docType
        self.validityInfo = ValidityInfo(signed: signed, validFrom: validFrom, validUntil: validUntil, expectedUpdate: expected)
    }
}
