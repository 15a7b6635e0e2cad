import MdocModel
import Testing

/// The one JSON reader: what it reads, one row per refusal, the caps, and the repeat it notes instead of refusing.
@Suite("JSON reader")
struct JSONReaderTests {
    static func read(_ text: String, maxNodes: Int = 1_000) -> Result<JSONValue, JSONReadError> {
        Result { () throws(JSONReadError) in try JSONValue.parse(Array(text.utf8), maxNodes: maxNodes) }
    }

    @Test("reads every JSON type, keeps member order and number text, unescapes strings")
    func reads() throws {
        let value = try JSONValue.parse(Array(#" {"b": [1, -0.5e+3, true, false, null], "a": "x\u00e9\ud83d\ude00\n\/", "n": 18446744073709551616} "#.utf8),
                                        maxNodes: 100)
        #expect(value == .object([("b", .array([.number("1"), .number("-0.5e+3"), .bool(true), .bool(false), .null])),
                                  ("a", .string("xé😀\n/")), ("n", .number("18446744073709551616"))]))
        #expect(value.members?.map(\.0) == ["b", "a", "n"])
        #expect(value["n"]?.unsignedInteger == nil, "past UInt64")
        #expect(try JSONValue.parse(Array("42".utf8), maxNodes: 1).unsignedInteger == 42)
        #expect(value["a"]?.kind == "a string" && value["b"]?.kind == "an array" && value["missing"] == nil)
        // What the writer writes, the reader reads back.
        #expect(try JSONValue.parse(value.serializedBytes(), maxNodes: 100) == value)
    }

    @Test("refuses what is not one JSON value, each with where it went wrong")
    func refusals() {
        let rows: [(String, String)] = [
            ("", "ends early"), ("{", "member name is not a string"), ("[", "ends early"), ("[1,]", "not a JSON value"), ("{\"a\" 1}", "':' expected"),
            ("{a: 1}", "member name is not a string"), ("[1 2]", "',' or ']' expected"), ("{\"a\":1 \"b\":2}", "',' or '}' expected"),
            ("1 2", "text after the JSON value"), ("01", "leading zero"), ("1.", "after '.'"), ("1e", "exponent digits"), ("-", "not a JSON value"),
            ("tru", "not a JSON value"), ("\"a", "not closed"), ("\"\\x\"", "invalid escape"), ("\"\\u12\"", "ends early"),
            ("\"\\uzzzz\"", "not hex"), ("\"\\ud800\"", "unpaired surrogate"), ("\"\\udc00\"", "unpaired surrogate"),
            ("\"a\u{01}\"", "control character"), ("{\"a\":1,\"a\":2}", "appears twice"), ("NaN", "not a JSON value"),
        ]
        for (text, message) in rows {
            guard case .failure(let error) = Self.read(text) else {
                Issue.record("\(text.debugDescription) was read")
                continue
            }
            #expect(error.message.contains(message), "\(text.debugDescription): \(error.message)")
        }
        let invalidUTF8: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: JSONReadError.self) { try JSONValue.parse(invalidUTF8, maxNodes: 10) }
    }

    @Test("nesting past 32 levels and documents past maxNodes are refused before they are built")
    func caps() {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(Self.read(deep).failure?.message.contains("deeper than 32") == true)
        #expect((try? Self.read(ok).get()) != nil)
        #expect(Self.read("[1,2,3]", maxNodes: 3).failure?.message.contains("more than 3") == true)
        #expect((try? Self.read("[1,2,3]", maxNodes: 4).get()) != nil)
    }

    @Test("a repeated member: parse refuses it naming it and its parent; parseNotingRepeat keeps the first value and notes the first repeat")
    func repeats() throws {
        let text = Array(#"{"vp_token": {"q": ["a"], "q": ["b"]}, "state": "s", "state": "t"}"#.utf8)
        let error = Self.read(String(decoding: text, as: UTF8.self)).failure
        #expect(error?.repeated == JSONRepeat(name: "q", parent: "vp_token"))
        let (value, repeated) = try JSONValue.parseNotingRepeat(text, maxNodes: 100)
        #expect(repeated == JSONRepeat(name: "q", parent: "vp_token"))
        #expect(value["vp_token"]?["q"] == .array([.string("a")]))
        #expect(value["state"] == .string("s"))
        #expect(value.members?.count == 2)
        // Same names in different objects are no repeat.
        #expect(try JSONValue.parseNotingRepeat(Array(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#.utf8), maxNodes: 100).1 == nil)
    }
}

extension Result {
    fileprivate var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
