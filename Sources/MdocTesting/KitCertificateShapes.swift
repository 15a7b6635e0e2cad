import CryptoCore
import Foundation
import KitCertificates

/// The root and signer certificate shapes the kit's lists and reader PKI repeat.
extension CertificateBuilder {
    /// A self-signed root: CA with path length 0, keyCertSign and cRLSign (critical), a subject key identifier.
    static func rootCA(subject: [(String, String)], serialNumber: [UInt8] = randomSerialNumber(), validity: DateInterval,
                       key: PrivateKey) throws -> Certificate {
        try CertificateBuilder(
            subject: subject, serialNumber: serialNumber, notBefore: validity.start, notAfter: validity.end, publicKey: key.publicKey,
            extensions: [.basicConstraints(isCA: true, pathLength: 0, critical: true), .keyUsage([.keyCertSign, .cRLSign], critical: true),
                         .subjectKeyIdentifier]).sign(issuer: nil, issuerKey: key)
    }

    /// A signing certificate `issuer` issued: digitalSignature (critical), `extendedKeyUsage` when given, then the
    /// subject and authority key identifiers.
    static func signer(subject: [(String, String)], serialNumber: [UInt8] = randomSerialNumber(), validity: DateInterval,
                       key: PublicKey, extendedKeyUsage: Extension? = nil, issuer: Certificate, issuerKey: PrivateKey) throws -> Certificate {
        let extensions: [Extension] = [.keyUsage(.digitalSignature, critical: true)] + (extendedKeyUsage.map { [$0] } ?? [])
            + [.subjectKeyIdentifier, .authorityKeyIdentifier]
        return try CertificateBuilder(subject: subject, serialNumber: serialNumber, notBefore: validity.start, notAfter: validity.end,
                                      publicKey: key, extensions: extensions).sign(issuer: issuer, issuerKey: issuerKey)
    }
}
