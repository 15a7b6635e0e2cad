import CryptoCore
import Foundation

/// PEM armour (RFC 7468) for the certificates and keys the kit writes.
public enum PEMText {
    /// The PEM text of `certificate`.
    public static func certificate(_ certificate: Certificate) -> String {
        certificate.pemEncoded
    }

    /// Wraps DER bytes in PEM armour under `label`.
    public static func encode(label: String, der: [UInt8]) -> String {
        PEM.encode(label: label, der: der)
    }
}
