import CryptoCore

extension DocumentVerification {
    static let digestClause = "ISO/IEC 18013-5 §9.1.2.5, §9.3.1"

    /// Every disclosed IssuerSignedItem: the digest of its tag-24 bytes as received must equal
    /// `valueDigests[namespace][digestID]`. Duplicate digest IDs or element identifiers within a namespace
    /// are rejected; MSO digests without a disclosed item (decoys, undisclosed elements) are normal.
    mutating func checkValueDigests() {
        let id = "digest.values"
        guard let mso, let algorithm = mso.digestAlgorithm else {
            skip(id, "no MSO with a supported digest algorithm", clause: Self.digestClause)
            return
        }
        var matched = 0
        var problems: [(ErrorCode, String)] = []
        for nameSpace in document.issuerNameSpaces {
            var seenIDs: Set<UInt64> = []
            var seenElements: Set<String> = []
            let digests = mso.valueDigests[nameSpace.name]
            for item in nameSpace.items {
                let label = "\(nameSpace.name)/\(item.elementIdentifier)"
                if !seenIDs.insert(item.digestID).inserted {
                    problems.append((.digestDuplicate, "\(label): digestID \(item.digestID) appears twice"))
                    continue
                }
                if !seenElements.insert(item.elementIdentifier).inserted {
                    problems.append((.digestDuplicate, "\(label): element returned twice"))
                    continue
                }
                guard let expected = digests?[item.digestID] else {
                    problems.append((.digestMissing, "\(label): no digest \(item.digestID) in the MSO"))
                    continue
                }
                let actual = Digest.hash(algorithm, item.taggedBytes)
                if constantTimeEquals(actual, expected) {
                    matched += 1
                } else {
                    problems.append((.digestMismatch, "\(label): digest does not match the MSO"))
                }
            }
        }
        if problems.isEmpty {
            pass(id, "\(matched) of \(matched) disclosed elements match (\(algorithm.rawValue))", clause: Self.digestClause)
        } else {
            for (code, detail) in problems {
                fail(id, code, detail, clause: Self.digestClause)
            }
        }
    }
}
