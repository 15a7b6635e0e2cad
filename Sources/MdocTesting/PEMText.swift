import CryptoCore
import Foundation

/// PEM armour (RFC 7468) for the certificates and keys the kit writes.
public enum PEMText {
    public static func certificate(_ certificate: Certificate) -> String {
        encode(label: "CERTIFICATE", der: certificate.derEncoded)
    }

    public static func encode(label: String, der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index ..< end]))
            index = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
