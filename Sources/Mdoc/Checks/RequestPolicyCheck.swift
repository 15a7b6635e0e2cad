import CBOR

extension DocumentVerification {
    static let policyClause = "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy"
    static let ageClause = "ISO/IEC 18013-5 §7.2.5 (age_over_NN); relying-party policy"

    /// The returned docType and elements must be a subset of what was requested. A requested `age_over_NN`
    /// the issuer did not return may be answered by `age_in_years`: the answer is released as a derived
    /// boolean and the exact age is withheld (`AgeDisclosure`). Requested-but-absent elements are not errors.
    mutating func checkRequestPolicy() {
        guard let policy = context.request else {
            skip("policy.elements", "no request given: returned elements are not compared with a request", clause: Self.policyClause)
            return
        }
        guard let request = policy.request(for: document.docType) else {
            fail("policy.doctype", .policyDocTypeNotRequested, "docType \(document.docType) was not requested", clause: Self.policyClause)
            return
        }
        pass("policy.doctype", document.docType, clause: Self.policyClause)
        let returned = returnedElements
        let ages = AgeDisclosure(request: request, returned: returned.map { ($0.nameSpace, $0.element) })
        ageDisclosure = ages
        if ages.unrequested.isEmpty {
            pass("policy.elements", "\(returned.count) returned element(s), all requested", clause: Self.policyClause)
        } else {
            for label in ages.unrequested {
                fail("policy.elements", .policyElementNotRequested, "\(label) was returned but not requested", clause: Self.policyClause)
            }
        }
        for derivation in ages.derivations {
            let source = returned.first { $0.nameSpace == derivation.nameSpace && $0.element == derivation.source }
            let label = "\(derivation.nameSpace)/\(derivation.element)"
            if let source, AgeDisclosure.answer(derivation, ageInYears: source.value) != nil {
                pass("policy.age_fallback", "\(label) was not returned; answered from \(derivation.source) as a derived boolean, "
                     + "and the exact age is withheld", clause: Self.ageClause)
            } else {
                fail("policy.age_fallback", .elementTypeInvalid,
                     "\(derivation.nameSpace)/\(derivation.source) is not an unsigned integer, so it cannot answer \(label)",
                     clause: Self.ageClause)
            }
        }
    }

    /// Every returned element, issuer-signed first, with its value and provenance.
    var returnedElements: [(nameSpace: String, element: String, value: CBORItem, deviceSigned: Bool)] {
        issuerItems.map { ($0.nameSpace, $0.item.elementIdentifier, $0.item.elementValue, false) }
            + document.deviceNameSpaces.flatMap { ns in ns.elements.map { (ns.name, $0.identifier, $0.value, true) } }
    }
}
