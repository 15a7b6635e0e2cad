import CryptoCore
import KitCertificates
import Foundation
import Mdoc

/// A reader (relying-party) root and a reader certificate for signing requests (ReaderAuth, ISO/IEC
/// 18013-5 §9.1.4 and Annex B Table B.7): what Apple Business Connect issues for Apple Wallet, but for tests.
public struct TestReaderPKI: Sendable {
    /// The root a wallet (or a test) trusts for reader authentication.
    public let root: Certificate
    /// The reader's key and certificate chain, ready for `AnnexCWebRequest.create(reader:)`.
    public let identity: ReaderIdentity

    /// Creates a root and a reader certificate it issued, with new random P-256 keys.
    ///
    /// - Parameters:
    ///   - commonName: the reader certificate's CN.
    ///   - readerEKU: false gives the leaf a TLS client EKU instead of 1.0.18013.5.1.6 (a deliberate fault).
    ///   - validity: the period both certificates are valid for.
    /// - Throws: an error from key generation or certificate signing.
    public init(commonName: String = "Test Reader", readerEKU: Bool = true,
                validity: ClosedRange<Date> = Date(timeIntervalSince1970: 1_735_689_600) ... Date(timeIntervalSince1970: 2_051_222_400)) throws {
        let rootKey = try PrivateKey.generate(.p256)
        let root = try CertificateBuilder(
            subject: [("C", "US"), ("CN", "Test Reader Root")], notBefore: validity.lowerBound, notAfter: validity.upperBound,
            publicKey: rootKey.publicKey,
            extensions: [.basicConstraints(isCA: true, pathLength: 0, critical: true), .keyUsage([.keyCertSign, .cRLSign], critical: true),
                         .subjectKeyIdentifier]
        ).sign(issuer: nil, issuerKey: rootKey)
        let key = try PrivateKey.generate(.p256)
        let usage: CertificateBuilder.Extension = readerEKU
            ? .extendedKeyUsage([ReaderAuthentication.readerExtendedKeyUsage], critical: true)
            : .extendedKeyUsage(["1.3.6.1.5.5.7.3.2"], critical: false)
        let leaf = try CertificateBuilder(
            subject: [("C", "US"), ("CN", commonName)], notBefore: validity.lowerBound, notAfter: validity.upperBound,
            publicKey: key.publicKey,
            extensions: [.keyUsage(.digitalSignature, critical: true), usage, .subjectKeyIdentifier, .authorityKeyIdentifier]
        ).sign(issuer: root, issuerKey: rootKey)
        self.root = root
        self.identity = try ReaderIdentity(key: key, certificates: [leaf])
    }
}
