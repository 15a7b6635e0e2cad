import Foundation
import MdocModel
import Testing
import Verifier

/// `JSONWriter` writes the server's reports without a tree; `JSONTreeBuilder` builds the same document as a
/// `JSONValue`. Both must agree, and strings must survive a standard JSON parser unchanged.
@Suite("JSON writer: escaping, separators, and agreement with the tree")
struct JSONWriterTests {
    static let strings: [(String, String)] = [
        ("", #""""#),
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("\u{01}\u{1F}\u{7F}", #""\u0001\u001f\u007f""#),
        ("é ✓ 🪪", "\"é ✓ 🪪\""),
        ("\"\"", #""\"\"""#),
        ("end\\", #""end\\""#),
    ]

    @Test("strings are escaped per RFC 8259 §7", arguments: strings)
    func escaping(_ input: String, _ expected: String) throws {
        var writer = JSONWriter()
        writer.string(input)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        // Oracle: Foundation's parser reads the original string back.
        let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
        #expect(parsed as? String == input)
    }

    /// The writer scans eight bytes at a time: a byte to escape must be found in every lane of a word and in the tail,
    /// and bytes next to the escaped ones (0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, and a non-ASCII `é` after each) must be copied as
    /// they are.
    @Test("each escaped byte is found at every position of a long string; its neighbours are not escaped",
          arguments: [0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F] as [UInt8])
    func escapingAtEveryPosition(_ byte: UInt8) throws {
        for length in [7, 8, 9, 16, 23] {
            for position in 0..<length {
                var scalars = [Unicode.Scalar](repeating: "a", count: length)
                scalars[position] = Unicode.Scalar(byte)
                if position + 1 < length { scalars[position + 1] = "é" }
                let input = String(String.UnicodeScalarView(scalars))
                var writer = JSONWriter()
                writer.string(input)
                let escapes = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
                #expect(writer.bytes.count == input.utf8.count + 2 + (escapes ? (byte == 0x22 || byte == 0x5C || byte == 0x09 ? 1 : 5) : 0),
                        "byte \(byte) at \(position) of \(length)")
                let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
                #expect(parsed as? String == input, "byte \(byte) at \(position) of \(length)")
            }
        }
    }

    @Test("members and elements are separated by commas, at every depth and after empty containers")
    func separators() {
        var writer = JSONWriter()
        var builder = JSONTreeBuilder()
        func document(_ sink: inout some JSONSink) {
            sink.beginObject()
            sink.member("a", 1)
            sink.array("empty") { _ in }
            sink.object("none") { _ in }
            sink.array("list") { sink in
                sink.bool(true)
                sink.null()
                sink.beginObject()
                sink.member("k", "v")
                sink.endObject()
                sink.beginArray()
                sink.endArray()
                sink.number("-2.5")
            }
            sink.member("missing", nil as String?)
            sink.endObject()
        }
        document(&writer)
        document(&builder)
        let expected = #"{"a":1,"empty":[],"none":{},"list":[true,null,{"k":"v"},[],-2.5],"missing":null}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        #expect(builder.value?.serializedBytes() == writer.bytes)
        #expect(builder.value == .object([
            ("a", .number("1")), ("empty", .array([])), ("none", .object([])),
            ("list", .array([.bool(true), .null, .object([("k", .string("v"))]), .array([]), .number("-2.5")])),
            ("missing", .null),
        ]))
    }

    @Test("a JSONValue written through the sink serializes as before, compact and pretty")
    func valueRoundTrip() {
        let value = JSONValue.object([("x", .array([.string("a\"b"), .number("3")])), ("y", .object([]))])
        var writer = JSONWriter()
        writer.value(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"x":["a\"b",3],"y":{}}"#)
        #expect(value.serialized(pretty: true) == "{\n  \"x\": [\n    \"a\\\"b\",\n    3\n  ],\n  \"y\": {}\n}")
    }
}
