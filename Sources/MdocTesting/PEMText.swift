import CryptoCore
import Foundation

/// PEM armour (RFC 7468) for the certificates and keys the kit writes.
public enum PEMText {
    public static func certificate(_ certificate: Certificate) -> String {
        certificate.pemEncoded
    }

    public static func encode(label: String, der: [UInt8]) -> String {
        PEM.encode(label: label, der: der)
    }
}
