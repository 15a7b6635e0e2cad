import CBOR
import CryptoCore
import MdocModel

/// The checks of a DeviceResponse as a whole (ISO/IEC 18013-5 §8.3.2.1.2.2), before its documents are checked one
/// by one: version and status, the set of documents, `documentErrors`, and the number of documents per requested
/// docType.
struct ResponseChecks {
    let response: DeviceResponse
    /// The documents that parsed (the others fail `document.structure`).
    let documents: [MdocDocument]
    let request: RequestPolicy?
    /// Documents per docType in the DeviceResponses checked before this one for the same answer (OpenID4VP: one per
    /// credential query); the request's counts hold across all of them.
    var earlierDocTypes: [String: Int] = [:]

    /// `earlierDocTypes` plus this response's documents.
    var docTypeCounts: [String: Int] {
        var counts = earlierDocTypes
        for document in documents { counts[document.docType, default: 0] += 1 }
        return counts
    }

    func run(_ log: inout CheckLog) {
        log.pass(.responseStructure, "DeviceResponse version \(response.version), \(response.documents.count) document(s)")
        if !response.version.hasPrefix("1.") {
            log.fail(.responseVersion, .responseMalformed, "unsupported DeviceResponse version \(response.version)")
        }
        if response.status != 0 {
            log.fail(.responseStatus, .responseStatus, "DeviceResponse status is \(response.status) (0 = OK)")
        } else if response.documents.isEmpty {
            log.fail(.responseStatus, .responseStatus, "DeviceResponse holds no documents")
        } else {
            log.pass(.responseStatus, "status 0")
        }
        checkRepeatedDocuments(&log)
        checkDocumentErrors(&log)
        checkDocumentsPerDocType(&log)
    }

    /// The same Document twice (byte for byte) is not a second document.
    func checkRepeatedDocuments(_ log: inout CheckLog) {
        // Keyed by SHA-256 of the bytes: hashing whole documents into a dictionary key byte by byte cost more than the
        // rest of the response checks.
        var seen: [[UInt8]: Int] = [:]
        var repeats: [String] = []
        if response.documents.count > 1 {
            for (index, node) in response.documents.enumerated() {
                let key = Digest.hash(.sha256, node.raw)
                if let first = seen[key] { repeats.append("document \(index) repeats document \(first)") } else { seen[key] = index }
            }
        }
        if repeats.isEmpty {
            log.pass(.responseDocuments, "\(response.documents.count) distinct document(s)")
        }
        for detail in repeats { log.fail(.responseDocuments, .responseMalformed, detail) }
    }

    /// `documentErrors` says which docTypes could not be returned; naming one that is returned is inconsistent.
    func checkDocumentErrors(_ log: inout CheckLog) {
        guard !response.documentErrors.isEmpty else { return }
        let returned = Set(documents.map(\.docType))
        let conflicting = response.documentErrors.filter { returned.contains($0.docType) }
        for entry in conflicting {
            log.fail(.responseDocumentErrors, .responseMalformed,
                     "documentErrors says \(entry.docType) could not be returned (code \(entry.code)), yet the response returns it")
        }
        if conflicting.isEmpty {
            let list = response.documentErrors.map { "\($0.docType) (code \($0.code))" }.joined(separator: ", ")
            log.warn(.responseDocumentErrors, "the wallet did not return: \(list)")
        }
    }

    /// A request names each docType once: more documents of a docType than that is more than was asked for, within
    /// one DeviceResponse or across the DeviceResponses of one answer.
    func checkDocumentsPerDocType(_ log: inout CheckLog) {
        guard let request else {
            log.skip(.policyDocuments, "needs the relying party's request, which the caller did not give")
            return
        }
        let counts = docTypeCounts
        let across = earlierDocTypes.isEmpty ? "" : " in this answer's DeviceResponses"
        let here = Set(documents.map(\.docType))
        // Unrequested docTypes fail policy.doctype on each document; here only the requested ones are counted, and only
        // those this response adds to (an excess is reported once, by the response that makes it).
        let repeated = counts.filter { docType, count in
            let asked = request.documents.filter { $0.docType == docType }.count
            return asked > 0 && count > asked && here.contains(docType)
        }
        if repeated.isEmpty {
            log.pass(.policyDocuments, "at most the requested number of documents per docType")
        }
        for (docType, count) in repeated.sorted(by: { $0.key < $1.key }) {
            log.fail(.policyDocuments, .policyDocTypeRepeated, "\(count) documents of docType \(docType)\(across); the request asks for one")
        }
    }
}
