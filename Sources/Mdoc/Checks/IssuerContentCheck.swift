import CBOR
import CryptoCore
import MdocModel

extension DocumentCheck {
    /// Disclosed `issuing_country` must equal the document signer's subject countryName, and
    /// `issuing_jurisdiction` its stateOrProvinceName, each when both sides exist.
    static let issuerContent = DocumentCheck(.issuerContent, needs: .documentSigner, stage: nil) { $0.checkIssuerContent(signer: $1.signer) }
}

extension DocumentVerification {
    static let mdlNameSpace = "org.iso.18013.5.1"

    mutating func checkIssuerContent(signer: Certificate) {
        let id = CheckID.issuerContent
        var country: String?
        var jurisdiction: String?
        for nameSpace in document.issuerNameSpaces where nameSpace.name == Self.mdlNameSpace {
            // By index: reading two fields of an item in place costs no reference counts, a copy of it several.
            let items = nameSpace.items
            for index in items.indices {
                if items[index].elementIdentifier == "issuing_country" { country = items[index].elementValue.text ?? "" }
                if items[index].elementIdentifier == "issuing_jurisdiction" { jurisdiction = items[index].elementValue.text ?? "" }
            }
        }
        guard country != nil || jurisdiction != nil else {
            skip(id, "neither issuing_country nor issuing_jurisdiction disclosed")
            return
        }
        var mismatches: [String] = []
        var notComparable: [String] = []
        if let country {
            if let certificateCountry = signer.subject.countryName {
                if certificateCountry != country {
                    mismatches.append("issuing_country does not equal the document signer's country \(certificateCountry)")
                }
            } else {
                notComparable.append("document signer has no countryName to compare issuing_country with")
            }
        }
        if let jurisdiction, let state = signer.subject.stateOrProvinceName, state != jurisdiction {
            mismatches.append("issuing_jurisdiction does not equal the document signer's stateOrProvinceName \(state)")
        }
        for detail in mismatches { fail(id, .issuerContentMismatch, detail) }
        for detail in notComparable { warn(id, detail) }
        if mismatches.isEmpty && notComparable.isEmpty {
            pass(id, "disclosed issuing country/jurisdiction match the document signer")
        }
    }
}
