import TestSupport
import Testing
@testable import CBOR

@Suite("Diagnostic notation")
struct DiagnosticTests {
    private func diag(_ input: String, expand: Bool = true) throws -> String {
        try CBORDecoder.decode(hex(input)).diagnostic(expandEmbedded: expand)
    }

    @Test func scalarsAndContainers() throws {
        #expect(try diag("a26161016162820203") == #"{"a": 1, "b": [2, 3]}"#)
        #expect(try diag("826161a161626163") == #"["a", {"b": "c"}]"#)
        #expect(try diag("a201020304") == "{1: 2, 3: 4}")
        #expect(try diag("3903e7") == "-1000")
        #expect(try diag("1bffffffffffffffff") == "18446744073709551615")
        #expect(try diag("c249010000000000000000") == "2(h'010000000000000000')")
        #expect(try diag("83f4f5f6") == "[false, true, null]")
        #expect(try diag("82f7f0") == "[undefined, simple(16)]")
        #expect(try diag("f8ff") == "simple(255)")
        #expect(try diag("62225c") == #""\"\\""#)
        #expect(try diag("62c3bc") == "\"ü\"")
        #expect(try diag("6101") == #""\u0001""#)
        #expect(try diag("c074323031332d30332d32315432303a30343a30305a") == #"0("2013-03-21T20:04:00Z")"#)
        #expect(try diag("5f42010243030405ff") == "h'0102030405'")
        #expect(try diag("40") == "h''")
    }

    @Test func floats() throws {
        #expect(try diag("f93e00") == "1.5")
        #expect(try diag("f93c00") == "1.0")
        #expect(try diag("f98000") == "-0.0")
        #expect(try diag("fa47c35000") == "100000.0")
        #expect(try diag("fb7e37e43c8800759c") == "1.0e+300")
        #expect(try diag("fbc010666666666666") == "-4.1")
        #expect(try diag("f97c00") == "Infinity")
        #expect(try diag("faff800000") == "-Infinity")
        #expect(try diag("fb7ff8000000000000") == "NaN")
    }

    @Test func tag24Expansion() throws {
        // {"a": 1, "b": 24(<< {"c": h'01'} >>)}
        let input = "a2 6161 01 6162 d818 45 a1616341 01"
        #expect(try diag(input) == #"{"a": 1, "b": 24(<< {"c": h'01'} >>)}"#)
        #expect(try diag(input, expand: false) == #"{"a": 1, "b": 24(h'a161634101')}"#)
        // Nested embedding, and a tag-24 byte string that is not CBOR stays hex.
        #expect(try diag("d818 44 d818 4101") == "24(<< 24(<< 1 >>) >>)")
        #expect(try diag("d818 42 0102") == "24(h'0102')")
        #expect(try diag("d818 01") == "24(1)")
    }

    @Test func embeddingExpansionIsBounded() throws {
        // 20 levels of tag 24 around tag 24: expansion stops after 16 and shows hex.
        var value: CBORValue = .unsigned(7)
        for _ in 0..<20 { value = .embedded(value) }
        let text = try CBORDecoder.decode(CBOREncoder.encode(value)).diagnostic()
        #expect(text.ranges(of: "<<").count == 16)
        #expect(text.contains("h'"))
    }
}
