import CryptoCore
import MdocModel

extension DocumentVerification {
    /// The caller-facing document, from the facts the checks established (`verifiedDocument()`). Only called once
    /// every check of the response passed. Elements the request did not ask for but that answered an age question
    /// (`AgeDisclosure`) are withheld; the answer is released instead, marked as derived.
    func verifiedDocument(mso: MobileSecurityObject, signer: Certificate, trustedChain: [Certificate]?,
                          request: RequestPolicy.DocumentRequest?, ages: AgeDisclosure?) -> VerifiedDocument? {
        let withheld = ages?.withheld ?? [:]
        // One namespace at a time (returned elements are grouped by namespace): its dictionary, its requested
        // elements and its withheld ones are looked up once, not per element.
        var elements: [String: [String: VerifiedDocument.Element]] = [:]
        var start = returnedElements.startIndex
        while start < returnedElements.endIndex {
            let nameSpace = returnedElements[start].nameSpace
            var end = start + 1
            while end < returnedElements.endIndex, returnedElements[end].nameSpace == nameSpace { end += 1 }
            let requested = request?.nameSpaces[nameSpace]
            let hidden = withheld[nameSpace]
            var entries = elements[nameSpace] ?? [:]
            entries.reserveCapacity(entries.count + end - start)
            // By index, reading fields in place: a copy of each entry would cost reference counts for all of them.
            for index in start ..< end where hidden?.contains(returnedElements[index].element) != true {
                let element = returnedElements[index].element
                entries[element] = VerifiedDocument.Element(
                    value: ElementValue(returnedElements[index].value), intentToRetain: requested?[element],
                    deviceSigned: returnedElements[index].deviceSigned, derivedFrom: nil)
            }
            elements[nameSpace] = entries
            start = end
        }
        for derivation in ages?.derivations ?? [] {
            guard let source = returnedElements.first(where: { $0.nameSpace == derivation.nameSpace && $0.element == derivation.source }),
                  let answer = AgeDisclosure.answer(derivation, ageInYears: source.value) else { continue }
            elements[derivation.nameSpace, default: [:]][derivation.element] = VerifiedDocument.Element(
                value: .bool(answer),
                intentToRetain: request?.intentToRetain(nameSpace: derivation.nameSpace, element: derivation.element),
                deviceSigned: source.deviceSigned, derivedFrom: derivation.source)
        }
        var missing: [String] = []
        if let request {
            for (nameSpace, requested) in request.nameSpaces {
                let released = elements[nameSpace]
                for identifier in requested.keys where released?[identifier] == nil {
                    missing.append("\(nameSpace)/\(identifier)")
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
                documentSignerValidUntil: signer.notAfter,
                anchor: verifiedAnchor(trustedChain?.last)),
            validity: info,
            elements: elements,
            missing: missing.sorted())
    }

    private func verifiedAnchor(_ anchor: Certificate?) -> VerifiedDocument.Anchor? {
        guard let anchor else { return nil }
        let provenance = context.trustStore.provenance[anchor.sha256Fingerprint]
        return VerifiedDocument.Anchor(
            subject: anchor.subject.description, certificateSHA256: anchor.sha256Fingerprint, selfSigned: anchor.isSelfSigned,
            source: provenance?.source, listNextUpdate: provenance?.listNextUpdate,
            listStale: provenance?.listNextUpdate.map { $0 < context.time } ?? false)
    }
}
