import CryptoCore
import Foundation

/// PEM armour (RFC 7468) for the certificates and keys the kit writes.
public enum PEMText {
    /// The PEM text of `certificate`.
    public static func certificate(_ certificate: Certificate) -> String {
        certificate.pemEncoded
    }
}
