import CBOR
import CryptoCore
import MdocModel

/// CBOR as a tree in which the mdoc structures it recognises are named and opened — tag-24 contents and COSE payloads
/// decoded (the MSO included), COSE headers with algorithm names, x5chain certificates summarised, IssuerSignedItems
/// as one line each, long byte strings shortened with their length. Nothing is verified: this shows what was sent,
/// not whether it is true. `mdocverify inspect` prints it as text or JSON; the server's inspector page draws the JSON.
package struct InspectNode: Sendable, Equatable {
    package var label: String
    package var summary: String
    package var children: [InspectNode] = []

    package init(label: String, summary: String, children: [InspectNode] = []) {
        self.label = label
        self.summary = summary
        self.children = children
    }

    /// The tree as indented text lines (two spaces a level), every input-derived text escaped for the terminal.
    package func lines(depth: Int = 0) -> [String] {
        let indent = String(repeating: "  ", count: depth)
        let head = summary.isEmpty ? label : (label.isEmpty ? summary : "\(label): \(summary)")
        return [indent + TerminalText.escaped(head)] + children.flatMap { $0.lines(depth: depth + 1) }
    }

    /// The tree as JSON: `{"label", "summary", "children"}` (children only when there are any).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [("label", .string(label)), ("summary", .string(summary))]
        if !children.isEmpty { members.append(("children", .array(children.map(\.json)))) }
        return .object(members)
    }

    /// The tree cut to its first `limit` nodes in depth-first order; what is cut becomes one line saying so, so a
    /// large response cannot make an unbounded answer.
    package func limited(to limit: Int) -> InspectNode {
        var budget = limit
        return limited(budget: &budget, limit: limit)
    }

    private func limited(budget: inout Int, limit: Int) -> InspectNode {
        budget -= 1
        var node = InspectNode(label: label, summary: summary)
        for child in children {
            guard budget > 0 else {
                node.children.append(InspectNode(label: "", summary: "… (not shown: over \(limit) items)"))
                break
            }
            node.children.append(child.limited(budget: &budget, limit: limit))
        }
        return node
    }
}

/// Builds `InspectNode`s from decoded CBOR.
package struct InspectTree {
    /// Longer byte strings are shown by their first bytes and their length.
    static let shownBytes = 16

    /// How many nodes the tree may still get: building stops there, so a large response (tag-24 contents inside
    /// tag-24 contents) cannot make work or memory beyond it.
    final class Budget {
        let limit: Int
        var remaining: Int
        init(_ limit: Int) { (self.limit, remaining) = (limit, limit) }
        var isExhausted: Bool { remaining <= 0 }
        var cut: InspectNode { InspectNode(label: "", summary: "… (not shown: over \(limit) items)") }
    }

    let budget: Budget

    /// The tree of `item`, built up to about `limit` nodes (`InspectNode.limited(to:)` cuts it exactly).
    package static func node(_ item: CBORItem, label: String = "", limit: Int = .max) -> InspectNode {
        InspectTree(budget: Budget(limit)).node(item, label: label)
    }

    func node(_ item: CBORItem, label: String, context: Context = .none, depth: Int = 0) -> InspectNode {
        guard !budget.isExhausted else { return budget.cut }
        budget.remaining -= 1
        guard depth < 24 else { return InspectNode(label: label, summary: "… (nested too deep to show)") }
        switch context {
        case .coseSign1 where Self.isCOSESign1(item): return coseSign1(item, label: label, depth: depth)
        case .issuerSignedItem: if let line = issuerSignedItem(item, label: label) { return line }
        default: break
        }
        switch item.value {
        case .map(let map): return mapNode(item, map, label: label, depth: depth)
        case .array(let array):
            var node = InspectNode(label: label, summary: "array of \(array.count)")
            for (index, element) in array.enumerated() {
                guard !budget.isExhausted else { node.children.append(budget.cut); break }
                node.children.append(self.node(element, label: "[\(index)]", context: context == .issuerSignedItems ? .issuerSignedItem : .none,
                                               depth: depth + 1))
            }
            return node
        case .tagged(24, let content):
            if case .bytes(let bytes) = content.value, let embedded = try? CBORDecoder.decode(bytes) {
                var inner = self.node(embedded, label: label, context: context, depth: depth + 1)
                inner.summary = "tag 24, \(bytes.count) bytes of CBOR" + (inner.summary.isEmpty ? "" : ": " + inner.summary)
                return inner
            }
            return InspectNode(label: label, summary: "tag 24 " + Self.scalar(content))
        case .tagged(let tag, let content) where content.isContainer:
            var inner = self.node(content, label: label, context: context, depth: depth + 1)
            inner.summary = "tag \(tag) " + inner.summary
            return inner
        default:
            return InspectNode(label: label, summary: Self.scalar(item))
        }
    }

    /// Where an item sits, which decides how it is shown.
    package enum Context: Equatable, Sendable {
        case none, coseSign1, issuerSignedItems, issuerSignedItem
    }

    /// Map members: known keys get their context (issuerAuth and deviceSignature are COSE_Sign1, a namespace's list
    /// holds IssuerSignedItems); valueDigests are counted, not listed.
    func mapNode(_ item: CBORItem, _ map: CBORMap, label: String, depth: Int) -> InspectNode {
        var node = InspectNode(label: label, summary: Self.name(of: item, count: map.count))
        for entry in map {
            guard !budget.isExhausted else { node.children.append(budget.cut); break }
            let key = entry.key.text ?? Self.scalar(entry.key)
            switch key {
            case "issuerAuth", "deviceSignature", "readerAuth", "readerAuthAll":
                node.children.append(self.node(entry.value, label: key, context: .coseSign1, depth: depth + 1))
            case "nameSpaces" where label == "issuerSigned" || item["issuerAuth"] != nil:
                var spaces = InspectNode(label: key, summary: "")
                for space in entry.value.map ?? CBORMap.empty where !budget.isExhausted {
                    spaces.children.append(self.node(space.value, label: space.key.text ?? Self.scalar(space.key), context: .issuerSignedItems,
                                                     depth: depth + 2))
                }
                node.children.append(spaces)
            case "valueDigests":
                var digests = InspectNode(label: key, summary: "")
                for space in entry.value.map ?? CBORMap.empty {
                    digests.children.append(InspectNode(label: space.key.text ?? Self.scalar(space.key),
                                                        summary: "\(space.value.map?.count ?? 0) digests"))
                }
                node.children.append(digests)
            default:
                node.children.append(self.node(entry.value, label: key, depth: depth + 1))
            }
        }
        return node
    }

    /// A name for maps whose keys say what they are.
    static func name(of map: CBORItem, count: Int) -> String {
        if map["documents"] != nil || map["documentErrors"] != nil, map["version"] != nil { return "DeviceResponse" }
        if map["docType"] != nil, map["issuerSigned"] != nil { return "Document" }
        if map["valueDigests"] != nil, map["validityInfo"] != nil { return "MobileSecurityObject" }
        if map["nameSpaces"] != nil, map["issuerAuth"] != nil { return "IssuerSigned" }
        if map["nameSpaces"] != nil, map["deviceAuth"] != nil { return "DeviceSigned" }
        return "map of \(count)"
    }

    /// `element = value  (digestID n)` for an IssuerSignedItem; nil when the item has another shape.
    func issuerSignedItem(_ item: CBORItem, label: String) -> InspectNode? {
        guard case .tagged(24, let content) = item.value, case .bytes(let bytes) = content.value,
              let embedded = try? CBORDecoder.decode(bytes), embedded.map != nil,
              let identifier = embedded["elementIdentifier"]?.text, let value = embedded["elementValue"]
        else { return nil }
        let digestID = embedded["digestID"]?.uint.map { "  (digestID \($0))" } ?? ""
        var node = InspectNode(label: label, summary: value.isContainer ? "\(identifier)\(digestID)" : "\(identifier) = \(Self.scalar(value))\(digestID)")
        if value.isContainer { node.children = [self.node(value, label: "value", depth: 1)] }
        return node
    }

    static func isCOSESign1(_ item: CBORItem) -> Bool {
        var node = item
        if case .tagged(18, let content) = item.value { node = content }
        guard let array = node.array, array.count == 4 else { return false }
        return array[0].bytes != nil && array[1].map != nil && array[3].bytes != nil
    }

    /// protected (decoded, algorithm named), unprotected (x5chain certificates summarised), payload (decoded when it
    /// is CBOR, e.g. the MSO), signature (length).
    func coseSign1(_ item: CBORItem, label: String, depth: Int) -> InspectNode {
        var message = item
        if case .tagged(18, let content) = item.value { message = content }
        guard let parts = message.array else { return InspectNode(label: label, summary: Self.scalar(item)) }
        var node = InspectNode(label: label, summary: "COSE_Sign1")
        let protected = parts[0].bytes.flatMap { $0.isEmpty ? nil : try? CBORDecoder.decode($0) }
        node.children.append(headerNode(protected, label: "protected", depth: depth + 1))
        node.children.append(headerNode(parts[1], label: "unprotected", depth: depth + 1))
        switch parts[2].value {
        case .null: node.children.append(InspectNode(label: "payload", summary: "detached (null)"))
        case .bytes(let payload):
            if let decoded = try? CBORDecoder.decode(payload) {
                var inner = self.node(decoded, label: "payload", depth: depth + 1)
                inner.summary = "\(payload.count) bytes of CBOR" + (inner.summary.isEmpty ? "" : ": " + inner.summary)
                node.children.append(inner)
            } else {
                node.children.append(InspectNode(label: "payload", summary: Self.bytesSummary(payload)))
            }
        default: node.children.append(self.node(parts[2], label: "payload", depth: depth + 1))
        }
        node.children.append(InspectNode(label: "signature", summary: parts[3].bytes.map(Self.bytesSummary) ?? Self.scalar(parts[3])))
        return node
    }

    func headerNode(_ header: CBORItem?, label: String, depth: Int) -> InspectNode {
        guard let header, let map = header.map else { return InspectNode(label: label, summary: "empty") }
        var node = InspectNode(label: label, summary: "")
        for entry in map where !budget.isExhausted {
            let key = entry.key.int.map { Self.headerNames[$0] ?? "label \($0)" } ?? Self.scalar(entry.key)
            if entry.key.int == 1, let value = entry.value.int {
                node.children.append(InspectNode(label: key, summary: "\(Self.algorithmNames[value] ?? "unknown") (\(value))"))
            } else if entry.key.int == 33 {
                node.children.append(certificates(entry.value, label: key))
            } else {
                node.children.append(self.node(entry.value, label: key, depth: depth + 1))
            }
        }
        return node
    }

    /// Each certificate of an x5chain: subject, issuer, validity and SPKI SHA-256.
    func certificates(_ item: CBORItem, label: String) -> InspectNode {
        let ders: [ArraySlice<UInt8>] = item.bytes.map { [$0] } ?? (item.array?.compactMap(\.bytes) ?? [])
        var node = InspectNode(label: label, summary: "\(ders.count) certificate(s)")
        for (index, der) in ders.enumerated() where !budget.isExhausted {
            budget.remaining -= 1
            guard let certificate = try? Certificate(derEncoded: Array(der)) else {
                node.children.append(InspectNode(label: "[\(index)]", summary: "not a DER certificate, " + Self.bytesSummary(der)))
                continue
            }
            node.children.append(InspectNode(label: "[\(index)]", summary: "\(certificate.subject)", children: [
                InspectNode(label: "issuer", summary: "\(certificate.issuer)"),
                InspectNode(label: "valid", summary: "\(RFC3339.format(certificate.notBefore)) … \(RFC3339.format(certificate.notAfter))"),
                InspectNode(label: "spki sha256", summary: Hex.encode(certificate.subjectPublicKeyInfoSHA256)),
            ]))
        }
        return node
    }

    /// A scalar in diagnostic notation, byte strings shortened.
    static func scalar(_ item: CBORItem) -> String {
        if case .bytes(let bytes) = item.value { return Self.bytesSummary(bytes) }
        return item.diagnostic(expandEmbedded: false)
    }

    static func bytesSummary(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.count <= shownBytes ? "h'\(Hex.encode(Array(bytes)))'" : "h'\(Hex.encode(Array(bytes.prefix(shownBytes))))…' (\(bytes.count) bytes)"
    }

    static let headerNames: [Int64: String] = [1: "alg", 2: "crit", 3: "content type", 4: "kid", 16: "typ", 33: "x5chain"]
    static let algorithmNames: [Int64: String] = [
        -7: "ES256", -35: "ES384", -36: "ES512", -8: "EdDSA", -9: "ESP256", -51: "ESP384", -52: "ESP512", -19: "Ed25519",
        5: "HMAC 256/256", 6: "HMAC 384/384", 7: "HMAC 512/512",
    ]
}

extension CBORItem {
    /// An array, map, or a tag around one (shown as children rather than on one line).
    var isContainer: Bool {
        switch value {
        case .array, .map: return true
        case .tagged(let tag, let content): return tag == 24 || content.isContainer
        default: return false
        }
    }
}
