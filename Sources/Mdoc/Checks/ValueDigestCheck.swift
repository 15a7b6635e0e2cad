import CryptoCore
import MdocModel

extension DocumentCheck {
    /// Every disclosed IssuerSignedItem: the digest of its tag-24 bytes as received must equal
    /// `valueDigests[namespace][digestID]`. Duplicate digest IDs or element identifiers within a namespace
    /// are rejected; MSO digests without a disclosed item (decoys, undisclosed elements) are normal.
    static let valueDigests = DocumentCheck(.digestValues, needs: .mso, .digestAlgorithm, stage: .digests) {
        $0.checkValueDigests(mso: $1, algorithm: $2)
    }
}

extension DocumentVerification {
    mutating func checkValueDigests(mso: MobileSecurityObject, algorithm: DigestAlgorithm) {
        let id = CheckID.digestValues
        var matched = 0
        var problems: [(ErrorCode, String)] = []
        for nameSpace in document.issuerNameSpaces {
            let digests = mso.valueDigests[nameSpace: nameSpace.name]
            let items = nameSpace.items
            let repeats = IssuerSignedItem.repeats(items)
            // By index: a copy of each item would cost a reference count per field.
            for index in items.indices {
                let digestID = items[index].digestID
                var label: String { "\(nameSpace.name)/\(items[index].elementIdentifier)" }  // built only for a problem
                switch repeats.isEmpty ? nil : repeats[index] {
                case .digestID?:
                    problems.append((.digestDuplicate, "\(label): digestID \(digestID) appears twice"))
                    continue
                case .element?:
                    problems.append((.digestDuplicate, "\(label): element returned twice"))
                    continue
                case nil:
                    break
                }
                // A namespace the MSO has no digests for answers nil, as a digestID it lacks does.
                switch digests.flatMap({ $0.matches(digestID, algorithm, items[index].taggedBytes) }) {
                case true?: matched += 1
                case false?: problems.append((.digestMismatch, "\(label): digest does not match the MSO"))
                case nil: problems.append((.digestMissing, "\(label): no digest \(digestID) in the MSO"))
                }
            }
        }
        if problems.isEmpty {
            pass(id, "\(matched) of \(matched) disclosed elements match (\(algorithm.rawValue))")
        } else {
            for (code, detail) in problems {
                fail(id, code, detail)
            }
        }
    }
}
