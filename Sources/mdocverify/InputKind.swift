import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// What a local file holds, told from its bytes, so that a file given to the wrong option is named for what it is
/// ("a PEM certificate") together with the option it belongs to, instead of a parser's complaint about its first byte.
/// Every CLI input that reads CBOR, text, keys or certificates asks here when the file is not what it expects.
indirect enum InputKind: Equatable {
    /// PEM armour; `label` is the first BEGIN line's label ("CERTIFICATE", "PRIVATE KEY", "PUBLIC KEY", …).
    case pem(label: String)
    /// JSON text (an object or an array).
    case json
    /// A DER X.509 certificate.
    case derCertificate
    /// A DER private key (PKCS#8 or SEC1).
    case derPrivateKey
    /// A DER public key (SubjectPublicKeyInfo).
    case derPublicKey
    /// Another DER structure: one ASN.1 SEQUENCE spanning the whole input (a CRL, an RSA key, …).
    case der
    /// Hex (`hex` true) or base64/base64url text whose decoded bytes are `inner`.
    case text(InputKind, hex: Bool)
    /// Anything else (CBOR, text of CBOR, or bytes nothing recognizes).
    case other

    /// The kind of `bytes`. Cheap for large inputs: only PEM armour in the first 64 KiB, the outer JSON brackets, and
    /// one DER header are looked at; text is decoded whole (and a certificate or key parse tried) only when its first
    /// decoded byte opens a DER SEQUENCE.
    static func of(_ bytes: [UInt8]) -> InputKind {
        if let label = pemLabel(bytes) { return .pem(label: label) }
        guard isText(bytes) else { return binary(bytes) }
        guard let first = bytes.first(where: { !isWhitespace($0) }), let last = bytes.last(where: { !isWhitespace($0) }) else {
            return .other
        }
        if (first == UInt8(ascii: "{") && last == UInt8(ascii: "}")) || (first == UInt8(ascii: "[") && last == UInt8(ascii: "]")) {
            return .json
        }
        let hex = bytes.allSatisfy { isHexDigit($0) || isWhitespace($0) }
        let head = String(decoding: bytes.lazy.filter { !isWhitespace($0) }.prefix(16), as: UTF8.self)
        guard (hex ? Hex.decode(head) : Base64URL.decode(head))?.first == 0x30,
              let decoded = BinaryText.decode(String(decoding: bytes, as: UTF8.self)) else { return .other }
        let inner = binary(decoded)
        return inner == .other ? .other : .text(inner, hex: hex)
    }

    /// Printable ASCII and whitespace only.
    static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || isWhitespace($0) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30 ... 0x39).contains(byte) || (0x41 ... 0x46).contains(byte) || (0x61 ... 0x66).contains(byte)
    }

    /// True for what is never a CBOR input: PEM, JSON, DER, and hex/base64 text of DER.
    var isNotCBOR: Bool { self != .other }

    /// "a PEM certificate", "hex text of a DER certificate", …
    var noun: String {
        switch self {
        case .pem(let label):
            switch label {
            case "CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE": return "a PEM certificate"
            case "PRIVATE KEY", "EC PRIVATE KEY": return "a PEM private key"
            case "ENCRYPTED PRIVATE KEY": return "a PEM encrypted (password-protected) private key"
            case "PUBLIC KEY", "EC PUBLIC KEY": return "a PEM public key"
            case "X509 CRL": return "a PEM CRL"
            default: return "PEM (\(label))"
            }
        case .json: return "JSON"
        case .derCertificate: return "a DER certificate"
        case .derPrivateKey: return "a DER private key"
        case .derPublicKey: return "a DER public key"
        case .der: return "DER (ASN.1)"
        case .text(let inner, let hex): return "\(hex ? "hex" : "base64") text of \(inner.noun)"
        case .other: return "unrecognized data"
        }
    }

    /// What the file is, stripped of its text encoding.
    var decoded: InputKind {
        if case .text(let inner, _) = self { return inner }
        return self
    }

    var isCertificate: Bool {
        switch decoded {
        case .pem(let label): return ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"].contains(label)
        case .derCertificate: return true
        default: return false
        }
    }

    var isPrivateKey: Bool {
        switch decoded {
        case .pem(let label): return label.hasSuffix("PRIVATE KEY")
        case .derPrivateKey: return true
        default: return false
        }
    }

    var isPublicKey: Bool {
        switch decoded {
        case .pem(let label): return label.hasSuffix("PUBLIC KEY")
        case .derPublicKey: return true
        default: return false
        }
    }

    var isCRL: Bool {
        if case .pem("X509 CRL") = decoded { return true }
        return false
    }

    /// Where such a file goes on the command line ("pass it with --trust"), or nil.
    func belongs(certificateOption: String = "--trust") -> String? {
        if isCertificate { return "pass it with \(certificateOption)" }
        if isPrivateKey { return "pass it with --private-key" }
        if isCRL { return "pass it with --crl" }
        if isPublicKey { return "verifying needs the private key (--private-key), not the public half" }
        return nil
    }

    // MARK: Private

    /// The label of the first `-----BEGIN <label>-----` line, looked for in the first 64 KiB.
    private static func pemLabel(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(64 * 1024)
        guard let begin = head.firstRange(of: Array("-----BEGIN ".utf8)) else { return nil }
        let rest = head[begin.upperBound...]
        guard let end = rest.firstRange(of: Array("-----".utf8)) else { return nil }
        let label = rest[rest.startIndex ..< end.lowerBound]
        guard label.count <= 64, label.allSatisfy({ $0 == 0x20 || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else {
            return nil
        }
        return String(decoding: label, as: UTF8.self)
    }

    /// DER kinds of binary `bytes`; `.other` unless one ASN.1 SEQUENCE spans them exactly.
    private static func binary(_ bytes: [UInt8]) -> InputKind {
        guard spansOneSequence(bytes) else { return .other }
        if (try? Certificate(derEncoded: bytes)) != nil { return .derCertificate }
        if (try? PrivateKey(derEncoded: bytes)) != nil { return .derPrivateKey }
        if (try? PublicKey(spkiDER: bytes)) != nil { return .derPublicKey }
        return .der
    }

    /// Whether `bytes` are one DER SEQUENCE header (tag 0x30, definite length) whose length covers the rest exactly.
    /// No CBOR input starts so: 0x30 is the CBOR integer -17, a whole item by itself.
    private static func spansOneSequence(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        if first < 0x80 { return 2 + first == bytes.count }
        let octets = first & 0x7F
        guard (1 ... 4).contains(octets), bytes.count >= 2 + octets else { return false }
        var length = 0
        for byte in bytes[2 ..< 2 + octets] { length = length << 8 | Int(byte) }
        return 2 + octets + length == bytes.count
    }
}
