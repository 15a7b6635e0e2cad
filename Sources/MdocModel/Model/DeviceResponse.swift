import CBOR

/// `DeviceResponse` (ISO/IEC 18013-5 §8.3.2.1.2.2). Documents stay undecoded CBOR here; each is parsed and
/// checked on its own so that one bad document is reported with its index.
package struct DeviceResponse: Sendable {
    package let version: String
    package let documents: [CBORItem]
    /// `documentErrors`: docType → error code (Table 9; 0 = data not returned).
    package let documentErrors: [(docType: String, code: Int64)]
    package let status: UInt64

    /// Parses the top-level map. Unknown keys are ignored (newer editions add keys such as `zkDocuments`).
    package init(_ item: CBORItem) throws(VerificationError) {
        guard item.isMap else { throw VerificationError(.responseMalformed, "DeviceResponse is not a map") }
        guard let version = item["version"]?.text else {
            throw VerificationError(.responseMalformed, "DeviceResponse has no text `version`")
        }
        guard let status = item["status"]?.uint else {
            throw VerificationError(.responseMalformed, "DeviceResponse has no unsigned `status`")
        }
        let documents = try Self.boundedArray(item, "documents").map { Array($0) } ?? []
        var documentErrors: [(String, Int64)] = []
        if let array = try Self.boundedArray(item, "documentErrors") {
            for entry in array {
                guard let map = entry.map else {
                    throw VerificationError(.responseMalformed, "a DocumentError is not a map")
                }
                for pair in map {
                    guard let docType = pair.key.text, let code = pair.value.int else {
                        throw VerificationError(.responseMalformed, "a DocumentError is not docType → int")
                    }
                    documentErrors.append((docType, code))
                }
            }
        }
        self.version = version
        self.status = status
        self.documents = documents
        self.documentErrors = documentErrors
    }

    /// The array under `key`, nil when absent; malformed when it is not an array or holds more than `maxDocuments`.
    private static func boundedArray(_ item: CBORItem, _ key: String) throws(VerificationError) -> CBORArray? {
        guard let node = item[key] else { return nil }
        guard let array = node.array else {
            throw VerificationError(.responseMalformed, "DeviceResponse `\(key)` is not an array")
        }
        guard array.count <= ResponseLimits.maxDocuments else {
            throw VerificationError(.responseMalformed, ResponseLimits.over(
                "DeviceResponse `\(key)`", count: array.count, limit: ResponseLimits.maxDocuments, name: "maxDocuments"))
        }
        return array
    }
}
