import MdocModel
extension DocumentCheck {
    /// A device-signed element is accepted only if the MSO's keyAuthorizations allow its namespace or the
    /// element itself; without keyAuthorizations none is. A device-signed element may not shadow an
    /// issuer-signed one.
    static let keyAuthorizations = DocumentCheck(.deviceKeyAuthorization, needs: .mso, stage: .device) { $0.checkKeyAuthorizations(mso: $1) }
}

extension DocumentVerification {
    mutating func checkKeyAuthorizations(mso: MobileSecurityObject) {
        let id = CheckID.deviceKeyAuthorization
        let deviceElements = document.deviceNameSpaces.flatMap { ns in ns.elements.map { (ns.name, $0.identifier) } }
        guard !deviceElements.isEmpty else {
            pass(id, "no device-signed elements")
            return
        }
        let issuerSigned = Set(issuerItems.map { "\($0.nameSpace)/\($0.item.elementIdentifier)" })
        var failed = false
        for (nameSpace, element) in deviceElements {
            let label = "\(nameSpace)/\(element)"
            if issuerSigned.contains(label) {
                fail(id, .deviceKeyUnauthorized, "\(label) is both device-signed and issuer-signed")
                failed = true
            } else if mso.keyAuthorizations?.allows(nameSpace: nameSpace, element: element) != true {
                fail(id, .deviceKeyUnauthorized, "\(label) is device-signed but the MSO does not authorize the device key for it")
                failed = true
            }
        }
        if !failed {
            pass(id, "\(deviceElements.count) device-signed element(s) authorized")
        }
    }
}
