extension DocumentVerification {
    static let policyClause = "ISO/IEC 18013-5 §8.3.2.1.2.1 (ItemsRequest); relying-party policy"

    /// The returned docType and elements must be a subset of what was requested. A requested
    /// `age_over_NN` may be answered by `age_in_years`. Requested-but-absent elements are not errors.
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
        var returned = issuerItems.map { ($0.nameSpace, $0.item.elementIdentifier) }
        returned += document.deviceNameSpaces.flatMap { ns in ns.elements.map { (ns.name, $0.identifier) } }
        var unrequested: [String] = []
        for (nameSpace, element) in returned where request.intentToRetain(nameSpace: nameSpace, element: element) == nil {
            unrequested.append("\(nameSpace)/\(element)")
        }
        if unrequested.isEmpty {
            pass("policy.elements", "\(returned.count) returned element(s), all requested", clause: Self.policyClause)
        } else {
            for label in unrequested {
                fail("policy.elements", .policyElementNotRequested, "\(label) was returned but not requested", clause: Self.policyClause)
            }
        }
    }
}
