import CBOR
import CryptoCore
import Foundation
import Mdoc
import Verifier

/// Reading local inputs. Every failure is a `UsageFailure` (exit 2) naming the path, never the contents.
enum InputFiles {
    /// The largest response file read: the CBOR ceiling (4 MiB) as hex text, plus whitespace. Checked from the
    /// file's size before anything is read, so a huge file costs no memory.
    static let maxResponseFileBytes = 2 * CBORLimits.default.maxInputBytes + 64 * 1024

    static func read(_ path: String, what: String, maxBytes: Int? = nil) throws -> [UInt8] {
        if let maxBytes, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw UsageFailure("\(what) at \(path) is \(size) bytes; the limit is \(maxBytes) (4 MiB of CBOR, as hex or base64 text)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageFailure("cannot read \(what) at \(path)")
        }
        if let maxBytes, data.count > maxBytes {
            throw UsageFailure("\(what) at \(path) is larger than \(maxBytes) bytes (4 MiB of CBOR, as hex or base64 text)")
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

    static func privateKey(_ path: String) throws -> PrivateKey {
        let text = try readText(path, what: "private key")
        do {
            return try PrivateKey(pemEncoded: text)
        } catch {
            throw UsageFailure("private key at \(path) is not a PEM SEC1 or PKCS#8 P-256/P-384/P-521 key")
        }
    }

    /// The anchors in `paths`, or the embedded production bundle when none is given.
    static func trustStore(_ paths: [String]) throws -> TrustStore {
        do {
            return paths.isEmpty ? try ProductionTrustBundle.trustStore() : try TrustFolder.trustStore(paths: paths)
        } catch {
            throw UsageFailure("cannot load trust anchors: \(error)")
        }
    }

    static func request(_ path: String?) throws -> RequestPolicy? {
        guard let path else { return nil }
        let bytes = try read(path, what: "request")
        do {
            return try JSONDecoder().decode(RequestPolicy.self, from: Data(bytes))
        } catch {
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

    static func hex(_ text: String, what: String) throws -> [UInt8] {
        guard let bytes = Hex.decode(text) else { throw UsageFailure("\(what) is not hex") }
        return bytes
    }
}
