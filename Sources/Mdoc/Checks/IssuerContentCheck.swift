extension DocumentVerification {
    static let issuerContentClause = "ISO/IEC 18013-5 §7.2.1, Annex B Table B.3"

    /// Disclosed `issuing_country` must equal the document signer's subject countryName, and
    /// `issuing_jurisdiction` its stateOrProvinceName when both exist.
    mutating func checkIssuerContent() {
        let id = "issuer.content"
        guard let signer = documentSigner else {
            skip(id, "no document signer certificate", clause: Self.issuerContentClause)
            return
        }
        let mdlNameSpace = "org.iso.18013.5.1"
        var country: String?
        var jurisdiction: String?
        for (nameSpace, item) in issuerItems where nameSpace == mdlNameSpace {
            if item.elementIdentifier == "issuing_country" { country = item.elementValue.text ?? "" }
            if item.elementIdentifier == "issuing_jurisdiction" { jurisdiction = item.elementValue.text ?? "" }
        }
        guard country != nil || jurisdiction != nil else {
            skip(id, "neither issuing_country nor issuing_jurisdiction disclosed", clause: Self.issuerContentClause)
            return
        }
        var failed = false
        if let country {
            if let certificateCountry = signer.subject.countryName {
                if certificateCountry != country {
                    fail(id, .issuerContentMismatch,
                         "issuing_country does not equal the document signer's country \(certificateCountry)", clause: Self.issuerContentClause)
                    failed = true
                }
            } else {
                warn(id, "document signer has no countryName to compare issuing_country with", clause: Self.issuerContentClause)
                return
            }
        }
        if let jurisdiction, let state = signer.subject.stateOrProvinceName, state != jurisdiction {
            fail(id, .issuerContentMismatch,
                 "issuing_jurisdiction does not equal the document signer's stateOrProvinceName \(state)", clause: Self.issuerContentClause)
            failed = true
        }
        if !failed {
            pass(id, "disclosed issuing country/jurisdiction match the document signer", clause: Self.issuerContentClause)
        }
    }
}
