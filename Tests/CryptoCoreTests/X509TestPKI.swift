import TestSupport
import CryptoCore
import KitCertificates
import Foundation
import Testing

/// A small test PKI made with CertificateBuilder.
enum X509TestPKI {
    static let start = X509Fixtures.date("2024-01-01T00:00:00Z")
    static let end = X509Fixtures.date("2033-01-01T00:00:00Z")
    static let inside = X509Fixtures.date("2025-06-01T12:00:00Z")

    static func root(
        _ curve: Curve = .p256, name: String = "Test IACA", pathLength: Int? = 0,
        keyUsage: KeyUsage = [.keyCertSign, .cRLSign], notBefore: Date = start, notAfter: Date = end,
        key: PrivateKey? = nil
    ) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try key ?? PrivateKey.generate(curve)
        let builder = CertificateBuilder(
            subject: [("C", "US"), ("ST", "CA"), ("O", "Test"), ("CN", name)],
            notBefore: notBefore, notAfter: notAfter, publicKey: key.publicKey,
            extensions: [
                .basicConstraints(isCA: true, pathLength: pathLength, critical: true),
                .keyUsage(keyUsage, critical: true),
                .subjectKeyIdentifier,
                .issuerAlternativeNameURI("https://iaca.example.org/"),
                .crlDistributionPointURI("https://iaca.example.org/crl"),
            ])
        return (try builder.sign(issuer: nil, issuerKey: key), key)
    }

    static func documentSigner(
        under issuer: (certificate: Certificate, key: PrivateKey), curve: Curve = .p256, name: String = "Test DS",
        notBefore: Date = start, notAfter: Date = X509Fixtures.date("2025-12-31T00:00:00Z"),
        extra: [CertificateBuilder.Extension] = []
    ) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try PrivateKey.generate(curve)
        let builder = CertificateBuilder(
            subject: [("C", "US"), ("ST", "CA"), ("CN", name)],
            notBefore: notBefore, notAfter: notAfter, publicKey: key.publicKey,
            extensions: [
                .keyUsage(.digitalSignature, critical: true),
                .extendedKeyUsage(["1.0.18013.5.1.2"], critical: true),
                .authorityKeyIdentifier,
                .subjectKeyIdentifier,
                .crlDistributionPointURI("https://iaca.example.org/crl"),
            ] + extra)
        return (try builder.sign(issuer: issuer.certificate, issuerKey: issuer.key), key)
    }

    /// A CA certificate (CA=true, no pathLen) issued under `issuer`.
    static func intermediate(
        under issuer: (certificate: Certificate, key: PrivateKey), isCA: Bool = true
    ) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try PrivateKey.generate(.p256)
        let builder = CertificateBuilder(
            subject: [("C", "US"), ("CN", "Test Intermediate")], notBefore: start, notAfter: end, publicKey: key.publicKey,
            extensions: [
                .basicConstraints(isCA: isCA, pathLength: nil, critical: true),
                .keyUsage([.keyCertSign, .cRLSign], critical: true),
                .subjectKeyIdentifier, .authorityKeyIdentifier,
            ])
        return (try builder.sign(issuer: issuer.certificate, issuerKey: issuer.key), key)
    }
}
