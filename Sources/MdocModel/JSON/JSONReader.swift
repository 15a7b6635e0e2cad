/// The one JSON reader (RFC 8259) for what arrives from outside: wallet answers, JWS and JWE headers, trust lists.
/// Nesting depth and node count are capped before anything is built, a member name repeated in one object is refused
/// (parsers disagree on which value counts, RFC 8259 §4; `parseNotingRepeat` keeps the first and says so), numbers
/// keep their text so an integer is read exactly, and nothing is sized from the input's own declarations.
extension JSONValue {
    /// The deepest nesting of objects and arrays accepted.
    public static let maxDepth = 32

    /// Parses `bytes` as one JSON value with nothing but whitespace around it; a repeated member name is an error.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 JSON text.
    ///   - maxNodes: The most values (of any kind) the document may hold.
    public static func parse(_ bytes: some Collection<UInt8>, maxNodes: Int) throws(JSONReadError) -> JSONValue {
        var reader = JSONReader(bytes: Array(bytes), maxNodes: maxNodes, refuseRepeats: true)
        return try reader.document()
    }

    /// Parses `bytes` as `parse` does, but keeps the first value of a repeated member name and returns the first
    /// repeat, for a caller that reports it on its own check.
    public static func parseNotingRepeat(_ bytes: some Collection<UInt8>, maxNodes: Int) throws(JSONReadError) -> (JSONValue, JSONRepeat?) {
        var reader = JSONReader(bytes: Array(bytes), maxNodes: maxNodes, refuseRepeats: false)
        let value = try reader.document()
        return (value, reader.firstRepeat)
    }

    /// `bytes` read as JSON with a generous node cap (a million values); nil for anything `parse` refuses.
    public static func read(_ bytes: some Collection<UInt8>) -> JSONValue? {
        try? parse(bytes, maxNodes: 1_000_000)
    }

    /// Parses `text` as a JSON object; nil when it is not one (any reading error included).
    public static func object(_ text: some StringProtocol, maxNodes: Int) -> JSONValue? {
        guard let value = try? parse(text.utf8, maxNodes: maxNodes), value.isObject else { return nil }
        return value
    }
}

/// Why JSON text was not read.
public struct JSONReadError: Error, Equatable, Sendable {
    /// What is wrong, and where (a byte offset): safe to show, it quotes no more than a member name, shortened.
    public let message: String
    /// The member name given twice, when that is what is wrong.
    public let repeated: JSONRepeat?

    init(message: String, repeated: JSONRepeat? = nil) {
        self.message = message
        self.repeated = repeated
    }
}

/// A member name given twice in one JSON object.
public struct JSONRepeat: Equatable, Sendable {
    /// The repeated name, unescaped.
    public let name: String
    /// The name of the member whose value is the object holding the repeat (nil at the top level or in an array).
    public let parent: String?

    /// A repeat of `name` in the object that is member `parent`'s value.
    public init(name: String, parent: String?) {
        self.name = name
        self.parent = parent
    }

    /// "the member name … appears twice in one object; …".
    public var message: String {
        "the member name \(InputQuote.short(name)) appears twice in one object; parsers disagree on which counts"
    }
}

/// The reader behind `JSONValue.parse`.
struct JSONReader {
    let bytes: [UInt8]
    let maxNodes: Int
    /// Refuse a repeated member name; otherwise keep the first value and note the first repeat.
    let refuseRepeats: Bool
    var index = 0
    var nodes = 0
    var firstRepeat: JSONRepeat?

    mutating func document() throws(JSONReadError) -> JSONValue {
        let value = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("text after the JSON value") }
        return value
    }

    func failure(_ what: String) -> JSONReadError { JSONReadError(message: "\(what) at byte \(index)") }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int, parent: String? = nil) throws(JSONReadError) -> JSONValue {
        nodes += 1
        guard nodes <= maxNodes else { throw JSONReadError(message: "more than \(maxNodes) JSON values") }
        skipWhitespace()
        guard index < bytes.count else { throw failure("the JSON ends early") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < JSONValue.maxDepth else { throw JSONReadError(message: "JSON nested deeper than \(JSONValue.maxDepth) levels") }
            return try object(depth: depth + 1, parent: parent)
        case UInt8(ascii: "["):
            guard depth < JSONValue.maxDepth else { throw JSONReadError(message: "JSON nested deeper than \(JSONValue.maxDepth) levels") }
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(JSONReadError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index ..< index + expected.count]) == expected else {
            throw failure("not a JSON value")
        }
        index += expected.count
    }

    mutating func object(depth: Int, parent: String?) throws(JSONReadError) -> JSONValue {
        var members: [(String, JSONValue)] = []
        var names = Set<String>()
        try elements(closedBy: "}") { (reader: inout JSONReader) throws(JSONReadError) in
            reader.skipWhitespace()
            guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "\"") else {
                throw reader.failure("an object member name is not a string")
            }
            let name = try reader.string()
            let isNew = names.insert(name).inserted
            if !isNew {
                let found = JSONRepeat(name: name, parent: parent)
                if reader.refuseRepeats { throw JSONReadError(message: found.message, repeated: found) }
                if reader.firstRepeat == nil { reader.firstRepeat = found }
            }
            reader.skipWhitespace()
            guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: ":") else { throw reader.failure("':' expected") }
            reader.index += 1
            let member = try reader.value(depth: depth, parent: name)
            if isNew { members.append((name, member)) }
        }
        return .object(members)
    }

    mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        var items: [JSONValue] = []
        try elements(closedBy: "]") { (reader: inout JSONReader) throws(JSONReadError) in
            items.append(try reader.value(depth: depth))
        }
        return .array(items)
    }

    /// Steps over the opening byte at `index` and reads elements with `element` until `close`: after each element
    /// comes ',' or `close`.
    mutating func elements(closedBy close: Unicode.Scalar,
                           _ element: (inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: close) {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw failure("the JSON ends early") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: close) else { throw failure("',' or '\(close)' expected") }
            index += 1
            return
        }
    }

    mutating func string() throws(JSONReadError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var start = index
        func flush(_ end: Int) throws(JSONReadError) {
            guard start < end else { return }
            guard let text = String(validating: bytes[start ..< end], as: UTF8.self) else { throw failure("a string is not UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            try flush(index)
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800 ..< 0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("an unpaired surrogate in a string")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00 ..< 0xE000).contains(low) else { throw failure("an unpaired surrogate in a string") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("an unpaired surrogate in a string") }
                scalars.append(scalar)
            default:
                throw failure("an invalid escape in a string")
            }
            start = index
        }
        throw failure("a string is not closed")
    }

    mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape ends early") }
        var code: UInt32 = 0
        for byte in bytes[index ..< index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30 ... 0x39: digit = byte - 0x30
            case 0x41 ... 0x46: digit = byte - 0x41 + 10
            case 0x61 ... 0x66: digit = byte - 0x61 + 10
            default: throw failure("a \\u escape is not hex")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }

    mutating func number() throws(JSONReadError) -> String {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("not a JSON value") }
        guard integerDigits == 1 || bytes[integerStart] != 0x30 else { throw failure("a number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("a number without digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number without exponent digits") }
        }
        return String(decoding: bytes[start ..< index], as: UTF8.self)
    }
}
