extension DocumentVerification {
    static let keyAuthorizationClause = "ISO/IEC 18013-5 §9.1.2.4 (keyAuthorizations)"

    /// A device-signed element is accepted only if the MSO's keyAuthorizations allow its namespace or the
    /// element itself; without keyAuthorizations none is. A device-signed element may not shadow an
    /// issuer-signed one.
    mutating func checkKeyAuthorizations() {
        let id = "device.key_authorization"
        let deviceElements = document.deviceNameSpaces.flatMap { ns in ns.elements.map { (ns.name, $0.identifier) } }
        guard !deviceElements.isEmpty else {
            pass(id, "no device-signed elements", clause: Self.keyAuthorizationClause)
            return
        }
        guard let mso else {
            skip(id, "no MSO", clause: Self.keyAuthorizationClause)
            return
        }
        let issuerSigned = Set(issuerItems.map { "\($0.nameSpace)/\($0.item.elementIdentifier)" })
        var failed = false
        for (nameSpace, element) in deviceElements {
            let label = "\(nameSpace)/\(element)"
            if issuerSigned.contains(label) {
                fail(id, .deviceKeyUnauthorized, "\(label) is both device-signed and issuer-signed", clause: Self.keyAuthorizationClause)
                failed = true
            } else if mso.keyAuthorizations?.allows(nameSpace: nameSpace, element: element) != true {
                fail(id, .deviceKeyUnauthorized, "\(label) is device-signed but the MSO does not authorize the device key for it",
                     clause: Self.keyAuthorizationClause)
                failed = true
            }
        }
        if !failed {
            pass(id, "\(deviceElements.count) device-signed element(s) authorized", clause: Self.keyAuthorizationClause)
        }
    }
}
