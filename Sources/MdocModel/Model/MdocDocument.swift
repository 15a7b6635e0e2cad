import CBOR

/// One `Document` of a DeviceResponse (ISO/IEC 18013-5 §8.3.2.1.2.2), parsed but not yet verified. A class of
/// constants: several steps hold the same document (docs/performance.md).
package final class MdocDocument: Sendable {
    package struct NameSpace: Sendable {
        package let name: String
        package let items: [IssuerSignedItem]
    }

    package enum DeviceAuthentication: Sendable {
        case signature(COSEMessage)
        case mac(COSEMessage)
    }

    package let docType: String
    package let issuerNameSpaces: [NameSpace]
    package let issuerAuth: COSEMessage
    /// `DeviceNameSpacesBytes` exactly as received (tag 24 included).
    package let deviceNameSpacesBytes: ArraySlice<UInt8>
    /// Device-signed elements: namespace → [(identifier, value)].
    package let deviceNameSpaces: [(name: String, elements: [(identifier: String, value: CBORItem)])]
    /// nil when deviceAuth holds neither deviceSignature nor deviceMac (reported by the device check).
    package let deviceAuth: DeviceAuthentication?
    package let deviceAuthProblem: String?
    /// `errors`: namespace → element → error code.
    package let errors: [(nameSpace: String, element: String, code: Int64)]

    package init(_ item: CBORItem) throws(VerificationError) {
        guard item.isMap else { throw Self.malformed("Document is not a map") }
        guard let docType = item["docType"]?.text else { throw Self.malformed("Document has no text `docType`") }
        guard let issuerSigned = item["issuerSigned"], issuerSigned.isMap else {
            throw Self.malformed("Document has no `issuerSigned` map")
        }
        guard let deviceSigned = item["deviceSigned"], deviceSigned.isMap else {
            throw Self.malformed("Document has no `deviceSigned` map")
        }
        guard let issuerAuthItem = issuerSigned["issuerAuth"] else { throw Self.malformed("issuerSigned has no `issuerAuth`") }
        do {
            issuerAuth = try COSEMessage(issuerAuthItem, tag: COSETag.sign1)
        } catch {
            throw Self.malformed("issuerAuth is not a COSE_Sign1: \(error)")
        }
        self.docType = docType
        issuerNameSpaces = try Self.issuerNameSpaces(issuerSigned["nameSpaces"])
        (deviceNameSpacesBytes, deviceNameSpaces) = try Self.deviceNameSpaces(deviceSigned["nameSpaces"])
        (deviceAuth, deviceAuthProblem) = try Self.deviceAuthentication(deviceSigned["deviceAuth"])
        errors = try Self.elementErrors(item["errors"])
    }

    static func malformed(_ what: String) -> VerificationError { VerificationError(.responseMalformed, what) }

    /// `IssuerNameSpaces` (optional): namespace → [IssuerSignedItemBytes], each array non-empty (CDDL `+`).
    static func issuerNameSpaces(_ node: CBORItem?) throws(VerificationError) -> [NameSpace] {
        guard let node else { return [] }
        guard let map = node.map else { throw malformed("issuerSigned `nameSpaces` is not a map") }
        try checkCeilings(nameSpaces: map.count, elements: map.reduce(0) { $0 + ($1.value.array?.count ?? 0) }, of: "issuerSigned")
        var nameSpaces: [NameSpace] = []
        for entry in map {
            guard let name = entry.key.text, let array = entry.value.array else {
                throw malformed("IssuerNameSpaces is not namespace → [IssuerSignedItemBytes]")
            }
            guard !array.isEmpty else { throw malformed("IssuerNameSpaces[\(name)] is an empty array (CDDL asks for at least one item)") }
            nameSpaces.append(NameSpace(name: name, items: try IssuerSignedItem.all(array)))
        }
        return nameSpaces
    }

    /// `ResponseLimits` on namespaces and elements, before any element is parsed.
    static func checkCeilings(nameSpaces: Int, elements: Int, of part: String) throws(VerificationError) {
        guard nameSpaces <= ResponseLimits.maxNameSpaces else {
            throw malformed(ResponseLimits.over("\(part) `nameSpaces`", count: nameSpaces, limit: ResponseLimits.maxNameSpaces,
                                                name: "maxNameSpaces"))
        }
        guard elements <= ResponseLimits.maxElementsPerDocument else {
            throw malformed(ResponseLimits.over("\(part) `nameSpaces` (elements)", count: elements,
                                                limit: ResponseLimits.maxElementsPerDocument, name: "maxElementsPerDocument"))
        }
    }

    /// `DeviceNameSpacesBytes` as received, and its elements: namespace → {identifier → value}.
    static func deviceNameSpaces(_ node: CBORItem?) throws(VerificationError)
        -> (ArraySlice<UInt8>, [(name: String, elements: [(identifier: String, value: CBORItem)])]) {
        guard let node else { throw malformed("deviceSigned has no `nameSpaces`") }
        let embedded: EmbeddedCBOR
        do {
            embedded = try node.decodeEmbedded()
        } catch {
            throw malformed("DeviceNameSpacesBytes is not #6.24(bstr .cbor DeviceNameSpaces): \(error)")
        }
        guard let deviceMap = embedded.item.map else { throw malformed("DeviceNameSpaces is not a map") }
        try checkCeilings(nameSpaces: deviceMap.count, elements: deviceMap.reduce(0) { $0 + ($1.value.map?.count ?? 0) }, of: "deviceSigned")
        var nameSpaces: [(name: String, elements: [(identifier: String, value: CBORItem)])] = []
        for entry in deviceMap {
            guard let name = entry.key.text, let elements = entry.value.map else {
                throw malformed("DeviceNameSpaces is not namespace → {element → value}")
            }
            var list: [(identifier: String, value: CBORItem)] = []
            for element in elements {
                guard let identifier = element.key.text else { throw malformed("device-signed element identifier is not text") }
                list.append((identifier, element.value))
            }
            nameSpaces.append((name, list))
        }
        return (embedded.tagged, nameSpaces)
    }

    /// `DeviceAuth`: exactly one of deviceSignature and deviceMac. Both is malformed; neither is left to the
    /// device check (`device.auth_missing`), with the problem returned beside.
    static func deviceAuthentication(_ node: CBORItem?) throws(VerificationError) -> (DeviceAuthentication?, String?) {
        guard let node, node.isMap else { throw malformed("deviceSigned has no `deviceAuth` map") }
        switch (node["deviceSignature"], node["deviceMac"]) {
        case let (.some(signature), .none):
            do { return (.signature(try COSEMessage(signature, tag: COSETag.sign1)), nil) } catch {
                throw malformed("deviceSignature is not a COSE_Sign1: \(error)")
            }
        case let (.none, .some(mac)):
            do { return (.mac(try COSEMessage(mac, tag: COSETag.mac0)), nil) } catch {
                throw malformed("deviceMac is not a COSE_Mac0: \(error)")
            }
        case (.some, .some):
            throw malformed("deviceAuth carries both deviceSignature and deviceMac")
        case (.none, .none):
            return (nil, "deviceAuth carries neither deviceSignature nor deviceMac")
        }
    }

    /// `errors` (optional): namespace → element → error code.
    static func elementErrors(_ node: CBORItem?) throws(VerificationError) -> [(nameSpace: String, element: String, code: Int64)] {
        guard let node else { return [] }
        guard let map = node.map else { throw malformed("Document `errors` is not a map") }
        var errors: [(nameSpace: String, element: String, code: Int64)] = []
        for entry in map {
            guard let nameSpace = entry.key.text, let elements = entry.value.map else { throw malformed("Document `errors` is malformed") }
            for element in elements {
                guard let id = element.key.text, let code = element.value.int else { throw malformed("Document `errors` is malformed") }
                errors.append((nameSpace, id, code))
            }
        }
        return errors
    }
}
