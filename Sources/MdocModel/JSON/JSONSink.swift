/// Receives a JSON document as a sequence of events in document order. The report's layout is written once against
/// it: `JSONTreeBuilder` turns the events into a `JSONValue`, `JSONWriter` into compact JSON bytes with no tree in
/// between (the server writes every report this way).
public protocol JSONSink {
    /// Opens an object; its members follow as `key` then a value, until `endObject`.
    mutating func beginObject()
    /// Closes the innermost open object.
    mutating func endObject()
    /// Opens an array; its elements follow until `endArray`.
    mutating func beginArray()
    /// Closes the innermost open array.
    mutating func endArray()
    /// The key of the next member of the open object.
    mutating func key(_ key: String)
    /// A string value.
    mutating func string(_ value: String)
    /// A number value, given as its JSON text.
    mutating func number(_ text: String)
    /// A boolean value.
    mutating func bool(_ value: Bool)
    /// The value `null`.
    mutating func null()
}

extension JSONSink {
    /// A member whose value is a string.
    public mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    /// A member whose value is a string, or `null` when there is none.
    public mutating func member(_ key: String, _ value: String?) {
        self.key(key)
        if let value { string(value) } else { null() }
    }

    /// A member whose value is a boolean.
    public mutating func member(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// A member whose value is an integer.
    public mutating func member(_ key: String, _ value: some BinaryInteger) {
        self.key(key)
        number(String(value))
    }

    /// A member whose value is the object `body` writes.
    public mutating func object(_ key: String, _ body: (inout Self) -> Void) {
        self.key(key)
        beginObject()
        body(&self)
        endObject()
    }

    /// A member whose value is the array `body` writes.
    public mutating func array(_ key: String, _ body: (inout Self) -> Void) {
        self.key(key)
        beginArray()
        body(&self)
        endArray()
    }

    /// Writes a whole `JSONValue` as the next value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let pairs):
            beginObject()
            for (key, member) in pairs {
                self.key(key)
                self.value(member)
            }
            endObject()
        }
    }
}
