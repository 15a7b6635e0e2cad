/// Builds a `JSONValue` from sink events, for callers that want the report as a tree (the CLI's pretty output, tests).
public struct JSONTreeBuilder: JSONSink {
    private enum Open {
        case object([(String, JSONValue)], key: String?)
        case array([JSONValue])
    }

    private var stack: [Open] = []
    /// The finished document; `nil` until the outermost value is complete.
    public private(set) var value: JSONValue?

    /// An empty builder.
    public init() {}

    public mutating func beginObject() { stack.append(.object([], key: nil)) }
    public mutating func beginArray() { stack.append(.array([])) }

    public mutating func endObject() {
        guard case .object(let pairs, _)? = stack.popLast() else { return }
        add(.object(pairs))
    }

    public mutating func endArray() {
        guard case .array(let items)? = stack.popLast() else { return }
        add(.array(items))
    }

    public mutating func key(_ key: String) {
        guard case .object(let pairs, _)? = stack.last else { return }
        stack[stack.count - 1] = .object(pairs, key: key)
    }

    public mutating func string(_ value: String) { add(.string(value)) }
    public mutating func number(_ text: String) { add(.number(text)) }
    public mutating func bool(_ value: Bool) { add(.bool(value)) }
    public mutating func null() { add(.null) }

    /// Attaches a complete value to the open container, or makes it the document.
    private mutating func add(_ member: JSONValue) {
        guard let top = stack.popLast() else {
            value = member
            return
        }
        switch top {
        case .object(var pairs, let key):
            pairs.append((key ?? "", member))
            stack.append(.object(pairs, key: nil))
        case .array(var items):
            items.append(member)
            stack.append(.array(items))
        }
    }
}
