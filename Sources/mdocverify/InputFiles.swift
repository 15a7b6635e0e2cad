import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// Reading local inputs. Every failure is a `UsageFailure` (exit 2) naming the path, never the contents.
enum InputFiles {
    /// The largest response file read: the CBOR ceiling (4 MiB) as hex text, plus whitespace. Checked from the
    /// file's size before anything is read, so a huge file costs no memory.
    static let maxResponseFileBytes = 2 * CBORLimits.default.maxInputBytes + 64 * 1024

    /// What any local file may hold at most when its reader names no smaller limit: a file that does not end
    /// (/dev/zero, a device) is refused at this size instead of filling memory.
    static let maxAnyFileBytes = 64 << 20

    static func read(_ path: String, what: String, maxBytes: Int? = nil) throws -> [UInt8] {
        if let maxBytes, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw UsageFailure("\(what) at \(path) is \(size) bytes; the limit is \(maxBytes) (4 MiB of CBOR, as hex or base64 text)")
        }
        // Read at most one byte past the limit: the size above is 0 for devices and pipes.
        let limit = maxBytes ?? maxAnyFileBytes
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
            throw UsageFailure("cannot read \(what) at \(path)")
        }
        try? handle.close()
        if data.count > limit {
            throw UsageFailure("\(what) at \(path) is larger than \(limit) bytes"
                               + (maxBytes == nil ? "" : " (4 MiB of CBOR, as hex or base64 text)"))
        }
        return Array(data)
    }

    static func readText(_ path: String, what: String, maxBytes: Int? = nil) throws -> String {
        let bytes = try read(path, what: what, maxBytes: maxBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageFailure("\(what) at \(path) is not UTF-8 text")
        }
        return text
    }

    /// A response file may hold raw CBOR, or text: hex, base64 or base64url. Text is recognized when every
    /// byte is printable ASCII or whitespace; raw CBOR envelopes start with a map head (0xa0–0xbf) and are not.
    static func decodeResponse(_ bytes: [UInt8]) -> [UInt8] {
        let isText = !bytes.isEmpty && bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard isText else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        return BinaryText.decode(text) ?? bytes
    }

    /// A CBOR input (response, transcript, VICAL): raw CBOR, or hex/base64 text of it. A file that is something
    /// else the CLI takes elsewhere (PEM, DER, JSON) is a `UsageFailure` saying what it is and where it goes.
    static func cbor(_ path: String, what: String, maxBytes: Int? = nil, certificateOption: String = "--trust",
                     expected: String = "raw CBOR, or hex/base64 text of it") throws -> [UInt8] {
        let bytes = try read(path, what: what, maxBytes: maxBytes)
        let kind = InputKind.of(bytes)
        guard !kind.isNotCBOR else {
            let belongs = kind.belongs(certificateOption: certificateOption).map { "\($0); " } ?? ""
            throw UsageFailure("\(what) at \(path) is \(kind.noun), not CBOR: \(belongs)give the \(what) here (\(expected))")
        }
        return decodeResponse(bytes)
    }

    /// A text input (Annex C or OpenID4VP response): a PEM, DER or binary file is a `UsageFailure` saying what it is.
    static func responseText(_ path: String, what: String, maxBytes: Int?, expected: String) throws -> String {
        let bytes = try read(path, what: what, maxBytes: maxBytes)
        let kind = InputKind.of(bytes)
        switch kind {
        case .pem, .derCertificate, .derPrivateKey, .derPublicKey, .der, .text:
            let belongs = kind.belongs().map { "\($0); " } ?? ""
            throw UsageFailure("\(what) at \(path) is \(kind.noun), not a response: \(belongs)give \(expected) here")
        case .json, .other:
            break
        }
        guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw UsageFailure("\(what) at \(path) is binary data (raw CBOR?), not text: give \(expected) here")
        }
        return text
    }

    /// A PEM private key. A file holding something else (the public half, a certificate, an encrypted or DER key)
    /// is a `UsageFailure` saying which, and what to pass instead.
    static func privateKey(_ path: String) throws -> PrivateKey {
        let bytes = try read(path, what: "private key")
        if let text = String(validating: bytes, as: UTF8.self), let key = try? PrivateKey(pemEncoded: text) {
            return key
        }
        let kind = InputKind.of(bytes)
        if kind.isPublicKey {
            throw UsageFailure("private key at \(path) is a public key (the public half of the key pair); pass the private key file"
                               + (privateSibling(of: path).map { " (\($0)?)" } ?? ""))
        }
        if kind.isCertificate {
            throw UsageFailure("private key at \(path) is a certificate (it holds only the public key); pass the private key file")
        }
        if case .pem("ENCRYPTED PRIVATE KEY") = kind {
            throw UsageFailure("private key at \(path) is encrypted; decrypt it first: openssl pkey -in \(path) -out key.pem")
        }
        if kind == .derPrivateKey {
            throw UsageFailure("private key at \(path) is DER; convert it to PEM: openssl pkey -inform DER -in \(path) -out key.pem")
        }
        throw UsageFailure("private key at \(path) is not a PEM SEC1 or PKCS#8 P-256/P-384/P-521 key"
                           + (kind == .other ? "" : " (it is \(kind.noun))"))
    }

    /// `path` with "public" replaced by "private" in its file name, when that file exists (keygen writes such pairs).
    private static func privateSibling(of path: String) -> String? {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard name.contains("public") else { return nil }
        let sibling = String(path[..<slash]) + name.replacingOccurrences(of: "public", with: "private")
        return FileManager.default.fileExists(atPath: sibling) ? sibling : nil
    }

    /// The anchors in `paths`, or the embedded production bundle when none is given.
    static func trustStore(_ paths: [String]) throws -> TrustStore {
        do {
            return paths.isEmpty ? try ProductionTrustBundle.trustStore() : try TrustInput.store(paths)
        } catch let failure as UsageFailure {
            throw failure
        } catch {
            throw UsageFailure("cannot load trust anchors: \(error)")
        }
    }

    /// The encryptionInfo in the file at `path`: the `encryptionInfo` member of the data.json `request annex-c`
    /// wrote, or the file's text, surrounding whitespace dropped.
    static func encryptionInfo(fromFile path: String) throws -> String {
        let text = try readText(path, what: "encryptionInfo", maxBytes: 1 << 20)
        if text.first(where: { !$0.isWhitespace }) == "{" {
            guard let info = JSONValue.object(text, maxNodes: 10_000)?["encryptionInfo"]?.string
            else { throw UsageFailure("\(path) is JSON without an \"encryptionInfo\" string: pass the data.json `request annex-c` wrote") }
            return info
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func request(_ path: String?) throws -> RequestPolicy? {
        guard let path else { return nil }
        let bytes = try read(path, what: "request")
        do {
            return try RequestAllowList.checked(try JSONDecoder().decode(RequestPolicy.self, from: Data(bytes)), path: path)
        } catch let failure as UsageFailure {
            throw failure
        } catch {
            if let problem = RequestAllowList.problem(in: path, decoding: error) { throw problem }
            throw UsageFailure("request at \(path) is not {\"documents\":[{\"docType\",\"nameSpaces\":{ns:{element:intentToRetain}}}]}")
        }
    }

    static func time(_ text: String?) throws -> Date {
        guard let text else { return Date() }
        guard let date = RFC3339.parseDateTime(text) else {
            throw UsageFailure("--at \(text) is not an RFC 3339 date-time such as 2022-06-01T00:00:00Z")
        }
        return date
    }

    /// A nonce as given (`--nonce`) and as printed back, in the same encoding.
    struct Nonce {
        let bytes: [UInt8]
        /// Hex when it was given as hex, else base64url without padding (how `verify-server` hands nonces out).
        let text: String
    }

    /// A nonce: hex when the text is an even number of hex digits, else base64url or base64 (the 43-character
    /// base64url nonce `POST /v1/requests` returns is never read as hex). An odd number of hex digits is refused: a
    /// digit went missing, and reading the rest as base64url would name another nonce.
    static func nonce(_ text: String, what: String) throws -> Nonce {
        if let bytes = Hex.decode(text), !bytes.isEmpty { return Nonce(bytes: bytes, text: Hex.encode(bytes)) }
        let digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        if !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }) {
            throw UsageFailure("\(what) has an odd number of hex digits (\(digits.count)); a hex nonce has two per byte")
        }
        if let bytes = Base64URL.decode(text), !bytes.isEmpty { return Nonce(bytes: bytes, text: Base64URL.encode(bytes)) }
        throw UsageFailure("\(what) is neither hex nor base64url: pass the request's nonce as POST /v1/requests returned it "
                           + "(base64url) or as hex")
    }

    static func hex(_ text: String, what: String) throws -> [UInt8] {
        guard let bytes = Hex.decode(text) else { throw UsageFailure("\(what) is not hex") }
        return bytes
    }
}
