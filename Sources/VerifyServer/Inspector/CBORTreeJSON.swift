import CBOR
import Mdoc
import MdocModel
import Verifier

/// A decoded CBOR item as the inspector page draws it: one JSON node per item, tag-24 contents decoded beside the
/// tag (`embedded`), byte strings as hex cut at `maxHexBytes`, and at most `maxNodes` nodes in all (the rest is
/// summarized), so a large response cannot make an unbounded answer.
enum CBORTreeJSON {
    static let maxHexBytes = 256
    static let maxNodes = 20_000

    static func tree(_ bytes: ArraySlice<UInt8>) -> JSONValue {
        guard let item = try? CBORDecoder.decode(bytes, limits: .default) else { return .null }
        var budget = maxNodes
        return node(item, budget: &budget)
    }

    static func node(_ item: CBORItem, budget: inout Int) -> JSONValue {
        guard budget > 0 else { return .object([("type", .string("text")), ("value", .string("(not shown: over \(maxNodes) items)"))]) }
        budget -= 1
        func scalar(_ type: String, _ value: String) -> JSONValue { .object([("type", .string(type)), ("value", .string(value))]) }
        switch item.value {
        case .unsigned(let n): return scalar("uint", String(n))
        case .negative(let n): return scalar("nint", n == .max ? "-18446744073709551616" : "-\(n + 1)")
        case .bytes(let bytes):
            return .object([("type", .string("bytes")), ("length", .int(bytes.count)),
                            ("hex", .string(Hex.encode(bytes.prefix(maxHexBytes)))), ("truncated", .bool(bytes.count > maxHexBytes))])
        case .text(let text): return scalar("text", text)
        case .array(let items):
            var nodes: [JSONValue] = []
            for child in items { nodes.append(node(child, budget: &budget)) }
            return .object([("type", .string("array")), ("items", .array(nodes))])
        case .map(let entries):
            var nodes: [JSONValue] = []
            for entry in entries {
                nodes.append(.object([("key", node(entry.key, budget: &budget)), ("value", node(entry.value, budget: &budget))]))
            }
            return .object([("type", .string("map")), ("entries", .array(nodes))])
        case .tagged(let tag, let inner):
            var pairs: [(String, JSONValue)] = [("type", .string("tag")), ("tag", .int(Int(clamping: tag))), ("item", node(inner, budget: &budget))]
            if tag == 24, let embedded = try? item.decodeEmbedded(limits: .default) {
                pairs.append(("embedded", node(embedded.item, budget: &budget)))
            }
            return .object(pairs)
        case .simple(let value): return scalar("simple", String(value))
        case .bool(let value): return scalar("bool", String(value))
        case .null: return .object([("type", .string("null"))])
        case .undefined: return .object([("type", .string("undefined"))])
        case .float(let value): return scalar("float", String(value))
        }
    }
}
