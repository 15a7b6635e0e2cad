extension DocumentVerification {
    /// The caller-facing document. Only called once every check of the response passed.
    func verifiedDocument() -> VerifiedDocument? {
        guard let mso, let signer = documentSigner else { return nil }
        let request = context.request?.request(for: document.docType)
        var elements: [String: [String: VerifiedDocument.Element]] = [:]
        for (nameSpace, item) in issuerItems {
            elements[nameSpace, default: [:]][item.elementIdentifier] = VerifiedDocument.Element(
                value: ElementValue(item.elementValue),
                intentToRetain: request?.intentToRetain(nameSpace: nameSpace, element: item.elementIdentifier),
                deviceSigned: false)
        }
        for nameSpace in document.deviceNameSpaces {
            for element in nameSpace.elements {
                elements[nameSpace.name, default: [:]][element.identifier] = VerifiedDocument.Element(
                    value: ElementValue(element.value),
                    intentToRetain: request?.intentToRetain(nameSpace: nameSpace.name, element: element.identifier),
                    deviceSigned: true)
            }
        }
        var missing: [String] = []
        if let request {
            for (nameSpace, requested) in request.nameSpaces {
                let returned = elements[nameSpace] ?? [:]
                for identifier in requested.keys where returned[identifier] == nil {
                    let answeredByAge = request.isAgeOverRequest(identifier)
                        && returned[RequestPolicy.DocumentRequest.ageFallbackElement] != nil
                    if !answeredByAge { missing.append("\(nameSpace)/\(identifier)") }
                }
            }
        }
        let info = mso.validityInfo
        return VerifiedDocument(
            docType: document.docType,
            issuer: VerifiedDocument.Issuer(
                documentSigner: signer.subject.description,
                root: trustedChain?.last.map { $0.subject.description },
                documentSignerValidFrom: signer.notBefore,
                documentSignerValidUntil: signer.notAfter),
            validity: VerifiedDocument.Validity(signed: info.signed, validFrom: info.validFrom, validUntil: info.validUntil,
                                                expectedUpdate: info.expectedUpdate),
            elements: elements,
            missing: missing.sorted())
    }
}
