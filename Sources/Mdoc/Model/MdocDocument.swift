import CBOR

/// One `Document` of a DeviceResponse (ISO/IEC 18013-5 §8.3.2.1.2.2), parsed but not yet verified.
package struct MdocDocument: Sendable {
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
    /// nil when deviceAuth holds neither or both of deviceSignature/deviceMac (reported by the device check).
    package let deviceAuth: DeviceAuthentication?
    package let deviceAuthProblem: String?
    /// `errors`: namespace → element → error code.
    package let errors: [(nameSpace: String, element: String, code: Int64)]

    package init(_ item: CBORItem) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.responseMalformed, what) }
        guard item.map != nil else { throw malformed("Document is not a map") }
        guard let docType = item["docType"]?.text else { throw malformed("Document has no text `docType`") }
        guard let issuerSigned = item["issuerSigned"], issuerSigned.map != nil else {
            throw malformed("Document has no `issuerSigned` map")
        }
        guard let deviceSigned = item["deviceSigned"], deviceSigned.map != nil else {
            throw malformed("Document has no `deviceSigned` map")
        }

        var nameSpaces: [NameSpace] = []
        if let node = issuerSigned["nameSpaces"] {
            guard let map = node.map else { throw malformed("issuerSigned `nameSpaces` is not a map") }
            for entry in map {
                guard let name = entry.key.text, let array = entry.value.array else {
                    throw malformed("IssuerNameSpaces is not namespace → [IssuerSignedItemBytes]")
                }
                var items: [IssuerSignedItem] = []
                items.reserveCapacity(array.count)
                for element in array { items.append(try IssuerSignedItem(element)) }
                nameSpaces.append(NameSpace(name: name, items: items))
            }
        }
        guard let issuerAuthItem = issuerSigned["issuerAuth"] else { throw malformed("issuerSigned has no `issuerAuth`") }
        do {
            issuerAuth = try COSEMessage(issuerAuthItem, tag: COSETag.sign1)
        } catch {
            throw malformed("issuerAuth is not a COSE_Sign1: \(error)")
        }

        guard let deviceNameSpacesItem = deviceSigned["nameSpaces"] else {
            throw malformed("deviceSigned has no `nameSpaces`")
        }
        let embedded: EmbeddedCBOR
        do {
            embedded = try deviceNameSpacesItem.decodeEmbedded()
        } catch {
            throw malformed("DeviceNameSpacesBytes is not #6.24(bstr .cbor DeviceNameSpaces): \(error)")
        }
        guard let deviceMap = embedded.item.map else { throw malformed("DeviceNameSpaces is not a map") }
        var deviceNameSpaces: [(String, [(String, CBORItem)])] = []
        for entry in deviceMap {
            guard let name = entry.key.text, let elements = entry.value.map else {
                throw malformed("DeviceNameSpaces is not namespace → {element → value}")
            }
            var list: [(String, CBORItem)] = []
            for element in elements {
                guard let identifier = element.key.text else { throw malformed("device-signed element identifier is not text") }
                list.append((identifier, element.value))
            }
            deviceNameSpaces.append((name, list))
        }

        guard let deviceAuthItem = deviceSigned["deviceAuth"], deviceAuthItem.map != nil else {
            throw malformed("deviceSigned has no `deviceAuth` map")
        }
        let signature = deviceAuthItem["deviceSignature"]
        let mac = deviceAuthItem["deviceMac"]
        var problem: String? = nil
        var auth: DeviceAuthentication? = nil
        switch (signature, mac) {
        case let (.some(sig), .none):
            do { auth = .signature(try COSEMessage(sig, tag: COSETag.sign1)) } catch { throw malformed("deviceSignature is not a COSE_Sign1: \(error)") }
        case let (.none, .some(tag)):
            do { auth = .mac(try COSEMessage(tag, tag: COSETag.mac0)) } catch { throw malformed("deviceMac is not a COSE_Mac0: \(error)") }
        case (.some, .some):
            problem = "deviceAuth carries both deviceSignature and deviceMac"
        case (.none, .none):
            problem = "deviceAuth carries neither deviceSignature nor deviceMac"
        }

        var errors: [(String, String, Int64)] = []
        if let node = item["errors"] {
            guard let map = node.map else { throw malformed("Document `errors` is not a map") }
            for entry in map {
                guard let ns = entry.key.text, let elements = entry.value.map else { throw malformed("Document `errors` is malformed") }
                for element in elements {
                    guard let id = element.key.text, let code = element.value.int else { throw malformed("Document `errors` is malformed") }
                    errors.append((ns, id, code))
                }
            }
        }

        self.docType = docType
        self.issuerNameSpaces = nameSpaces
        self.deviceNameSpacesBytes = embedded.tagged
        self.deviceNameSpaces = deviceNameSpaces
        self.deviceAuth = auth
        self.deviceAuthProblem = problem
        self.errors = errors
    }
}
