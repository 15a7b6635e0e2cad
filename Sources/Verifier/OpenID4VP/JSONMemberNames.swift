import Foundation

/// Finds a member name repeated within one JSON object. RFC 8259 §4 leaves such an object's meaning to the parser
/// (JSONSerialization keeps the last value, other parsers the first), so a `vp_token` naming one credential query
/// twice could be read as two different answers. Run on text a JSON parser has already accepted.
enum JSONMemberNames {
    struct Repeat: Equatable {
        /// The repeated name, unescaped.
        let name: String
        /// The name of the member whose value is the object holding the repeat (nil at the top level).
        let parent: String?
    }

    private struct Frame {
        let isObject: Bool
        let parent: String?
        var names: Set<String> = []
        var expectingName: Bool
        var lastName: String?
    }

    /// The first repeated member name, in document order; nil when every object's names are distinct.
    static func firstRepeat<Bytes: Sequence<UInt8>>(_ json: Bytes) -> Repeat? {
        var stack: [Frame] = []
        var inString = false
        var escaped = false
        var nameHasEscape = false
        var collecting = false
        var name: [UInt8] = []
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    nameHasEscape = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if collecting, !stack.isEmpty {
                        collecting = false
                        let text = unescaped(name, hasEscape: nameHasEscape)
                        let top = stack.count - 1
                        guard stack[top].names.insert(text).inserted else { return Repeat(name: text, parent: stack[top].parent) }
                        stack[top].lastName = text
                        stack[top].expectingName = false
                    }
                    continue
                }
                if collecting { name.append(byte) }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                nameHasEscape = false
                if let top = stack.last, top.isObject, top.expectingName {
                    collecting = true
                    name.removeAll(keepingCapacity: true)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let parent = stack.last.flatMap { $0.isObject ? $0.lastName : $0.parent }
                stack.append(Frame(isObject: byte == UInt8(ascii: "{"), parent: parent, expectingName: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if let top = stack.last, top.isObject { stack[stack.count - 1].expectingName = true }
            default:
                break
            }
        }
        return nil
    }

    /// A name as a parser reads it: `"\u0061"` and `"a"` are the same name.
    private static func unescaped(_ raw: [UInt8], hasEscape: Bool) -> String {
        guard hasEscape,
              let text = try? JSONSerialization.jsonObject(with: Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]),
                                                           options: .fragmentsAllowed) as? String
        else { return String(decoding: raw, as: UTF8.self) }
        return text
    }
}
