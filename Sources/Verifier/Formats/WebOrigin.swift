import MdocModel

/// The origin the web formats (Annex C, OpenID4VP) bind into their transcripts: the WHATWG ASCII serialization of the calling page's
/// origin, `scheme://host[:port]` with no path, no trailing slash and the default port omitted
/// (docs/formats.md §2.2). Checked when a request is created, so a configuration typo fails
/// early instead of making every response fail device authentication.
enum WebOrigin {
    /// The calling page's origin a web request needs, validated; `input.malformed` when it is missing.
    static func required(_ origin: String?, format: VerificationReport.Format) throws(VerificationError) -> String {
        guard let origin, !origin.isEmpty else {
            throw VerificationError(.inputMalformed, "\(format.rawValue) requests need the calling page's `origin`, e.g. https://shop.example")
        }
        try validate(origin)
        return origin
    }

    static func validate(_ origin: String) throws(VerificationError) {
        func invalid(_ why: String) -> VerificationError {
            VerificationError(.inputMalformed, "origin \(InputQuote.short(origin)) is not a serialized web origin (scheme://host[:port]): \(why)")
        }
        let scheme: String
        if origin.hasPrefix("https://") {
            scheme = "https"
        } else if origin.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw invalid("scheme must be https (or http for localhost development)")
        }
        let rest = origin.dropFirst(scheme.count + 3)
        var host = Substring(rest)
        var port: Substring? = nil
        if rest.hasPrefix("[") {
            // IPv6 literal: [address] then an optional :port.
            guard let close = rest.firstIndex(of: "]") else { throw invalid("unterminated IPv6 literal") }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the host") }
                port = after.dropFirst()
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit && !$0.isUppercase || $0 == ":" || $0 == "." }) else {
                throw invalid("IPv6 literal must be lowercase hex")
            }
        } else {
            if let colon = rest.lastIndex(of: ":") {
                host = rest[..<colon]
                port = rest[rest.index(after: colon)...]
            }
            guard !host.isEmpty, host.utf8.allSatisfy({ isHostByte($0) }) else {
                throw invalid("host must be lowercase ASCII letters, digits, '-' and '.' (punycode for IDNs), no path or slash")
            }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                  !port.hasPrefix("0"), let number = Int(port), number <= 65535
            else { throw invalid("bad port") }
            guard number != (scheme == "https" ? 443 : 80) else { throw invalid("the default port is omitted in a serialized origin") }
        }
    }

    private static func isHostByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }
}
