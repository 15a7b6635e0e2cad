import Foundation
import Mdoc
import MdocModel
import Testing

/// Base64url (RFC 4648 §5) against the RFC's own vectors and against Foundation's standard base64 with the
/// alphabet swapped and the padding dropped.
@Suite struct ByteEncodingTests {
    /// RFC 4648 §10 test vectors, unpadded as base64url is written here.
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
                      ("foobar", "Zm9vYmFy")])
    func rfcVectors(text: String, encoded: String) {
        #expect(Base64URL.encode(Array(text.utf8)) == encoded)
        #expect(Base64URL.decodeStrict(encoded) == Array(text.utf8))
    }

    /// Every length up to 66 and every byte value, so the `-` and `_` positions and both tails are covered.
    @Test func matchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0 ... 66 {
            let bytes = length == 66 ? (0 ... 255).map { UInt8($0) } : (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == expected, "length \(bytes.count)")
            #expect(Base64URL.decodeStrict(encoded) == bytes)
            #expect(Base64URL.decode(Substring(Data(bytes).base64EncodedString())) == bytes, "standard alphabet, padded")
        }
    }

    /// Line-wrapped standard base64 (a PEM-like file) decodes; the same text is refused where only base64url is.
    @Test func wrappedAndStandardAlphabet() {
        let bytes = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let standard = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        #expect(Base64URL.decode(standard) == bytes)
        #expect(Base64URL.decode(" " + standard + "\n") == bytes)
        #expect(Base64URL.decodeStrict(standard) == nil)
    }

    /// Refused wherever the bad symbol sits: inside a whole quantum, in the tail, or as padding mid-text.
    @Test(arguments: ["Zm9v*mFy", "Zm9vYmF*", "Zm9vYmE!", "Zg==Zm9v", "Z", "Zm9vY", "Zg===", "Zm+v", "Zm/v"])
    func strictRefusals(text: String) {
        #expect(Base64URL.decodeStrict(text) == nil)
    }

    /// Non-zero leftover bits: strict refuses them (RFC 4648 §3.5), lenient ignores them.
    @Test func leftoverBits() {
        #expect(Base64URL.decodeStrict("Zh") == nil)
        #expect(Base64URL.decode("Zh") == [0x66])
    }
}
