import CBOR

/// CBOR tags of the COSE structures an mdoc uses (RFC 9052 §2, Table 1).
package enum COSETag {
    package static let sign1: UInt64 = 18
    package static let mac0: UInt64 = 17
}

/// The parts shared by COSE_Sign1 and COSE_Mac0 (RFC 9052 §4.2, §6.2): protected header as received,
/// unprotected header, payload (nil when detached) and the signature or tag.
package struct COSEMessage: Sendable {
    /// Content of the protected-header byte string exactly as received (used verbatim in the ToBeSigned/ToBeMaced).
    package let protectedBytes: ArraySlice<UInt8>
    package let protectedHeader: CBORMap
    package let unprotectedHeader: CBORMap
    package let payload: ArraySlice<UInt8>?
    /// Signature (COSE_Sign1) or tag (COSE_Mac0).
    package let authenticator: ArraySlice<UInt8>
    /// The limits the message was decoded with: its protected header and what its payload holds (the MSO) keep to them.
    package let decodingLimits: CBORLimits

    /// Parses `[protected: bstr, unprotected: map, payload: bstr / nil, signature: bstr]`, optionally behind
    /// its CBOR tag (`COSETag.sign1` or `COSETag.mac0`). Returns a reason on failure.
    package init(_ item: CBORItem, tag expectedTag: UInt64) throws(COSEParseError) {
        var node = item
        if let (tag, inner) = item.tag {
            guard tag == expectedTag else { throw COSEParseError("unexpected CBOR tag \(tag)") }
            node = inner
        }
        guard let parts = node.array, parts.count == 4 else {
            throw COSEParseError("not a 4-element COSE array")
        }
        guard let protected = parts[0].bytes else { throw COSEParseError("protected header is not a byte string") }
        if protected.isEmpty {
            protectedHeader = .empty
        } else {
            guard let decoded = try? CBORDecoder.decode(protected, limits: item.decodingLimits), let map = decoded.map else {
                throw COSEParseError("protected header is not an encoded map")
            }
            protectedHeader = map
        }
        guard let unprotected = parts[1].map else { throw COSEParseError("unprotected header is not a map") }
        if parts[2].isNull {
            payload = nil
        } else if let bytes = parts[2].bytes {
            payload = bytes
        } else {
            throw COSEParseError("payload is neither a byte string nor null")
        }
        guard let authenticator = parts[3].bytes else { throw COSEParseError("signature/tag is not a byte string") }
        self.protectedBytes = protected
        self.unprotectedHeader = unprotected
        self.authenticator = authenticator
        decodingLimits = item.decodingLimits
    }

    /// What breaks RFC 9052 §3 in the headers, or nil: `crit` (label 2) outside the protected header, or listing a
    /// label this verifier does not process (`understood`); `alg` in the unprotected header; a label in both.
    package func headerProblem(understood: Set<Int64>) -> String? {
        if unprotectedHeader.contains(where: { $0.key.int == COSEHeaderLabel.critical }) {
            return "crit (label 2) is in the unprotected header; it must be protected"
        }
        if unprotectedHeader.contains(where: { $0.key.int == COSEHeaderLabel.algorithm }) {
            return "alg (label 1) is in the unprotected header; it is read from the protected header only"
        }
        let protectedLabels = protectedHeader.map(\.key.raw)
        if let shared = unprotectedHeader.first(where: { entry in protectedLabels.contains { $0.elementsEqual(entry.key.raw) } }) {
            return "header label \(shared.key.int.map(String.init) ?? shared.key.text ?? "?") is in both the protected and unprotected header"
        }
        guard let crit = protectedHeader.first(where: { $0.key.int == COSEHeaderLabel.critical })?.value else { return nil }
        guard let labels = crit.array, !labels.isEmpty else { return "crit is not a non-empty array of labels" }
        for label in labels {
            guard let number = label.int, understood.contains(number) else {
                let name = label.int.map(String.init) ?? label.text.map { "\"\($0)\"" } ?? "?"
                return "crit lists header label \(name), which this verifier does not process"
            }
        }
        return nil
    }

    /// `alg` from the protected header (RFC 9052 §3.1: it must be protected).
    package var algorithmIdentifier: Int64? {
        protectedHeader.first { $0.key.int == COSEHeaderLabel.algorithm }?.value.int
    }

    /// A header parameter, protected first, then unprotected.
    package func header(_ label: Int64) -> CBORItem? {
        if let entry = protectedHeader.first(where: { $0.key.int == label }) { return entry.value }
        return unprotectedHeader.first { $0.key.int == label }?.value
    }

    /// `Sig_structure` / `MAC_structure` (RFC 9052 §4.4, §6.3): [context, protected, external_aad, payload],
    /// with the protected bytes as received and the given payload (ours when detached).
    package func toBeAuthenticated(context: String, payload: some Collection<UInt8>, externalAAD: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(context.utf8.count + protectedBytes.count + externalAAD.count + payload.count + 32)
        CBOREncoder.appendArrayHead(count: 4, to: &out)
        CBOREncoder.appendText(context, to: &out)
        CBOREncoder.appendByteString(protectedBytes, to: &out)
        CBOREncoder.appendByteString(externalAAD, to: &out)
        CBOREncoder.appendByteString(payload, to: &out)
        return out
    }
}

extension COSEMessage {
    /// `bytes` decoded as one COSE_Sign1 (tagged or not, behind `outerTag` too when given) whose headers show no
    /// `headerProblem(understood:)`. The error reads "not CBOR: …", "not a COSE_Sign1: …" or the header problem.
    package static func sign1(_ bytes: [UInt8], understood: Set<Int64>, outerTag: UInt64? = nil) throws(COSEParseError) -> COSEMessage {
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes)
        } catch {
            throw COSEParseError("not CBOR: \(error)")
        }
        var node = item
        if let outerTag, let (tag, inner) = item.tag, tag == outerTag { node = inner }
        let message: COSEMessage
        do {
            message = try COSEMessage(node, tag: COSETag.sign1)
        } catch {
            throw COSEParseError("not a COSE_Sign1: \(error)")
        }
        if let problem = message.headerProblem(understood: understood) { throw COSEParseError(problem) }
        return message
    }
}

package struct COSEParseError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
