import Foundation

/// `application/x-www-form-urlencoded` (the WHATWG URL standard's serializer and parser), for the authorization
/// request's query and the wallet's posts.
package enum FormEncoding {
    /// Percent-encodes every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`).
    package static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// A form body's parameters, name → value; throws `input.malformed` for one of `significant` given twice (parsers
    /// disagree on which counts; nil: any name), an invalid percent-escape or a value that is not UTF-8. Another name
    /// given twice keeps its first value: unrecognized parameters are ignored (OpenID4VP 1.0 §5.10.1).
    package static func parse(_ body: String, significant: Set<String>? = nil) throws(VerificationError) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw VerificationError(.inputMalformed, "the form body has an invalid percent-escape or a value that is not UTF-8")
            }
            guard parameters[name] == nil else {
                guard significant?.contains(name) ?? true else { continue }
                throw VerificationError(.inputMalformed, "the form body gives the parameter \(InputQuote.short(name)) twice; each is sent once")
            }
            parameters[name] = value
        }
        return parameters
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
