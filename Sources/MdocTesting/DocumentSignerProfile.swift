import CryptoCore
import KitCertificates
import Foundation

/// Deliberate departures from the Document Signer profile (ISO/IEC 18013-5 Annex B, Table B.3).
public struct DocumentSignerDeviations: OptionSet, Sendable, Hashable {
    /// The deviations as bits.
    public let rawValue: UInt8
    /// Creates a set of deviations from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EKU 1.0.18013.5.1.6 (mdoc reader authentication) instead of 1.0.18013.5.1.2.
    public static let wrongExtendedKeyUsage = DocumentSignerDeviations(rawValue: 1 << 0)
    /// Key usage nonRepudiation only, without digitalSignature.
    public static let keyUsageWithoutDigitalSignature = DocumentSignerDeviations(rawValue: 1 << 1)
    /// No key usage extension at all.
    public static let noKeyUsage = DocumentSignerDeviations(rawValue: 1 << 2)
    /// basicConstraints CA=true (critical).
    public static let certificateAuthority = DocumentSignerDeviations(rawValue: 1 << 3)
}

extension TestPKI {
    /// Issues another Document Signer: with profile deviations, another validity period, or under a root the
    /// relying party does not trust (`untrustedIssuer`: same subject name as the IACA, different key).
    public func issueDocumentSigner(label: String, deviations: DocumentSignerDeviations = [], validity: DateInterval,
                                    untrustedIssuer: Bool = false, crlURI: String = TestPKI.crlURI,
                                    at time: Date) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try seed.key("document-signer/\(label)/\(curve.rawValue)", curve: curve)
        var issuer = iaca
        var issuerKey = iacaKey
        if untrustedIssuer {
            issuerKey = try seed.key("untrusted-iaca/\(curve.rawValue)", curve: curve)
            issuer = try Self.makeIACA(key: issuerKey, seed: seed, time: time, country: country, jurisdiction: jurisdiction,
                                       label: "untrusted-iaca")
        }
        let certificate = try Self.makeDocumentSigner(
            key: key, profile: deviations, validity: validity, issuer: issuer, issuerKey: issuerKey,
            serial: seed.serialNumber("document-signer/\(label)"), country: country, jurisdiction: jurisdiction, crlURI: crlURI)
        return (certificate, key)
    }

    static func makeDocumentSigner(key: PrivateKey, profile: DocumentSignerDeviations, validity: DateInterval,
                                   issuer: Certificate, issuerKey: PrivateKey, serial: [UInt8],
                                   country: String, jurisdiction: String, crlURI: String = TestPKI.crlURI,
                                   rsaKey: RSATestKey? = nil) throws -> Certificate {
        var extensions: [CertificateBuilder.Extension] = []
        if profile.contains(.certificateAuthority) {
            extensions.append(.basicConstraints(isCA: true, pathLength: nil, critical: true))
        }
        for item in CertificateBuilder.documentSignerExtensions(issuerAlternativeNameURI: issuerAltNameURI, crlDistributionPointURI: crlURI) {
            switch item {
            case .keyUsage where profile.contains(.noKeyUsage):
                continue
            case .keyUsage where profile.contains(.keyUsageWithoutDigitalSignature):
                extensions.append(.keyUsage(.nonRepudiation, critical: true))
            case .extendedKeyUsage where profile.contains(.wrongExtendedKeyUsage):
                extensions.append(.extendedKeyUsage(["1.0.18013.5.1.6"], critical: true))
            default:
                extensions.append(item)
            }
        }
        var builder = CertificateBuilder(
            subject: [("C", country), ("ST", jurisdiction), ("O", "MdocTesting"), ("CN", "MdocTesting Test Document Signer")],
            serialNumber: serial, notBefore: validity.start, notAfter: validity.end, publicKey: key.publicKey,
            extensions: extensions)
        builder.rsaSubjectKey = rsaKey
        return try builder.sign(issuer: issuer, issuerKey: issuerKey)
    }
}
