import MdocModel
/// A small, bounded JSON reader (RFC 8259) for trust lists and their JWS headers: nesting depth and node count are
/// capped before anything is built, a member name repeated in one object is refused (parsers disagree on which value
/// counts, RFC 8259 §4), and numbers keep their text so an integer is read exactly. Nothing is sized from the input's
/// own declarations.
enum LoTEJSON: Sendable, Equatable {
    case object([(name: String, value: LoTEJSON)])
    case array([LoTEJSON])
    case string(String)
    /// The number's text as written (grammar-checked).
    case number(String)
    case bool(Bool)
    case null

    struct Failure: Error, Equatable {
        let message: String
    }

    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = 32

    /// Parses `bytes` as one JSON value with nothing but whitespace around it.
    ///
    /// - Parameter maxNodes: the most values (of any kind) the document may hold.
    static func parse(_ bytes: [UInt8], maxNodes: Int) throws(Failure) -> LoTEJSON {
        var reader = Reader(bytes: bytes, maxNodes: maxNodes)
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.failure("text after the JSON value") }
        return value
    }

    static func == (lhs: LoTEJSON, rhs: LoTEJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    // MARK: Access

    subscript(name: String) -> LoTEJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var array: [LoTEJSON]? { if case .array(let items) = self { items } else { nil } }
    var isObject: Bool { if case .object = self { true } else { false } }
    var members: [(name: String, value: LoTEJSON)]? { if case .object(let members) = self { members } else { nil } }

    /// A non-negative integer written without fraction or exponent, within UInt64; nil otherwise.
    var unsignedInteger: UInt64? {
        guard case .number(let text) = self, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(text)
    }

    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    // MARK: Reading

    private struct Reader {
        let bytes: [UInt8]
        let maxNodes: Int
        var index = 0
        var nodes = 0

        func failure(_ what: String) -> Failure { Failure(message: "\(what) at byte \(index)") }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(Failure) -> LoTEJSON {
            nodes += 1
            guard nodes <= maxNodes else { throw Failure(message: "more than \(maxNodes) JSON values") }
            skipWhitespace()
            guard index < bytes.count else { throw failure("the JSON ends early") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < LoTEJSON.maxDepth else { throw Failure(message: "JSON nested deeper than \(LoTEJSON.maxDepth) levels") }
                return try object(depth: depth + 1)
            case UInt8(ascii: "["):
                guard depth < LoTEJSON.maxDepth else { throw Failure(message: "JSON nested deeper than \(LoTEJSON.maxDepth) levels") }
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

        mutating func literal(_ word: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index ..< index + expected.count]) == expected else {
                throw failure("not a JSON value")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws(Failure) -> LoTEJSON {
            index += 1
            var members: [(name: String, value: LoTEJSON)] = []
            var names = Set<String>()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([])
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("an object member name is not a string") }
                let name = try string()
                guard names.insert(name).inserted else {
                    throw Failure(message: "the member name \(InputQuote.short(name)) appears twice in one object; parsers disagree on which counts")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' expected") }
                index += 1
                members.append((name, try value(depth: depth)))
                skipWhitespace()
                guard index < bytes.count else { throw failure("the JSON ends early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("',' or '}' expected") }
                index += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(Failure) -> LoTEJSON {
            index += 1
            var items: [LoTEJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array([])
            }
            while true {
                items.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw failure("the JSON ends early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("',' or ']' expected") }
                index += 1
                return .array(items)
            }
        }

        mutating func string() throws(Failure) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            func flush(_ end: Int) throws(Failure) {
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

        mutating func hex4() throws(Failure) -> UInt32 {
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

        mutating func number() throws(Failure) -> String {
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
}
