#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims
import CryptoCore

/// Builds X.509 v3 certificates for test PKIs (IACA roots, document signers, reader certificates).
///
/// Extensions are written in the order given; repeated `.crlDistributionPointURI` or
/// `.issuerAlternativeNameURI` entries are merged into one extension at the first one's position.
public struct CertificateBuilder: Sendable {
    /// Name attributes in encoding order: short names ("C", "ST", "O", "CN", …) or dotted OIDs.
    public var subject: [(String, String)]
    /// The serial number as a big-endian magnitude; must be 1 to 64 bytes.
    public var serialNumber: [UInt8]
    /// The start of the validity period.
    public var notBefore: Date
    /// The end of the validity period.
    public var notAfter: Date
    /// The subject public key.
    public var publicKey: PublicKey
    /// When set, the certificate carries this RSA key instead of `publicKey` (a Document Signer ISO/IEC 18013-5 does
    /// not allow, for a test case).
    public var rsaSubjectKey: RSATestKey?
    /// The extensions to write, in order.
    public var extensions: [Extension]

    /// An extension `CertificateBuilder` can write.
    public enum Extension: Sendable {
        /// BasicConstraints with the cA flag and an optional pathLenConstraint.
        case basicConstraints(isCA: Bool, pathLength: Int?, critical: Bool)
        /// KeyUsage with the given bits.
        case keyUsage(KeyUsage, critical: Bool)
        /// ExtendedKeyUsage with the given KeyPurposeId OIDs (dotted).
        case extendedKeyUsage([String], critical: Bool)
        /// SHA-1 of the subject public key bits (RFC 5280 §4.2.1.2 method 1).
        case subjectKeyIdentifier
        /// An explicit SKI value, e.g. a wrong one for fault tests.
        case subjectKeyIdentifierValue([UInt8])
        /// keyIdentifier = the issuer's SKI (its method-1 hash if it has none); self-signed: our own SKI.
        case authorityKeyIdentifier
        /// A non-critical CRLDistributionPoints entry with this URI as its full name.
        case crlDistributionPointURI(String)
        /// A non-critical IssuerAltName entry with this URI.
        case issuerAlternativeNameURI(String)
        /// Any extension, `der` being the extnValue contents.
        case custom(oid: String, critical: Bool, der: [UInt8])
    }

    /// Creates a builder; the serial number defaults to `randomSerialNumber()`.
    public init(
        subject: [(String, String)],
        serialNumber: [UInt8] = CertificateBuilder.randomSerialNumber(),
        notBefore: Date,
        notAfter: Date,
        publicKey: PublicKey,
        extensions: [Extension] = []
    ) {
        self.subject = subject
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKey = publicKey
        self.extensions = extensions
    }

    /// Returns a fresh random serial number: 16 bytes, positive, top byte at least 0x40 (fixed length, 126 bits of
    /// entropy).
    public static func randomSerialNumber() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        if RAND_bytes(&bytes, Int32(bytes.count)) != 1 {
            ERR_clear_error()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        }
        bytes[0] = (bytes[0] & 0x7f) | 0x40
        return bytes
    }

    /// Returns the extensions of an IACA root per ISO/IEC 18013-5 Annex B table B.1 (docs/formats.md §4.5).
    ///
    /// BC CA pathLen 0, KU keyCertSign + cRLSign, SKI, issuer alternative name, CRL distribution point.
    public static func iacaExtensions(issuerAlternativeNameURI: String, crlDistributionPointURI: String) -> [Extension] {
        [
            .basicConstraints(isCA: true, pathLength: 0, critical: true),
            .keyUsage([.keyCertSign, .cRLSign], critical: true),
            .subjectKeyIdentifier,
            .issuerAlternativeNameURI(issuerAlternativeNameURI),
            .crlDistributionPointURI(crlDistributionPointURI),
        ]
    }

    /// Returns the extensions of a Document Signer per ISO/IEC 18013-5 Annex B table B.3 (docs/formats.md §4.5).
    ///
    /// KU digitalSignature, EKU 1.0.18013.5.1.2, AKI, SKI, issuer alternative name, CRL distribution point.
    public static func documentSignerExtensions(issuerAlternativeNameURI: String, crlDistributionPointURI: String) -> [Extension] {
        [
            .keyUsage(.digitalSignature, critical: true),
            .extendedKeyUsage(["1.0.18013.5.1.2"], critical: true),
            .authorityKeyIdentifier,
            .subjectKeyIdentifier,
            .issuerAlternativeNameURI(issuerAlternativeNameURI),
            .crlDistributionPointURI(crlDistributionPointURI),
        ]
    }

    /// Builds the certificate and signs it with `issuerKey`.
    ///
    /// The issuer name and AKI come from `issuer`; nil means self-signed (issuer name =
    /// subject, AKI = own SKI). ECDSA hashes match the issuer key's curve (P-256 → SHA-256, P-384 → SHA-384,
    /// P-521 → SHA-512); Ed25519 signs without a separate digest. X25519 keys cannot sign
    /// (`CryptoError(.unsupportedAlgorithm)`); an empty or over-long serial number, an invalid OID or a rejected
    /// name attribute throws `CryptoError(.invalidInput)`, an OpenSSL failure `CryptoError(.internalFailure)`.
    public func sign(issuer: Certificate?, issuerKey: PrivateKey) throws -> Certificate {
        let digest: OpaquePointer?
        switch issuerKey.curve {
        case .ed25519: digest = nil
        case .x25519: throw CryptoError(.unsupportedAlgorithm, "X25519 keys cannot sign certificates")
        default: digest = issuerKey.curve.ecdsaDigest?.md
        }
        guard let x509 = X509_new() else { throw CryptoError(.internalFailure, X509Support.drainErrors("X509_new failed")) }
        defer { X509_free(x509) }
        defer { ERR_clear_error() }

        guard X509_set_version(x509, Int(X509_VERSION_3)) == 1 else { throw Self.failure("X509_set_version") }
        try setSerialNumber(x509)
        let name = try Self.makeName(subject)
        defer { X509_NAME_free(name) }
        guard X509_set_subject_name(x509, name) == 1 else { throw Self.failure("X509_set_subject_name") }
        let issuerName = issuer.map { X509_get_subject_name($0.x509) } ?? name
        guard withExtendedLifetime(issuer, { X509_set_issuer_name(x509, issuerName) }) == 1 else {
            throw Self.failure("X509_set_issuer_name")
        }
        try setValidity(x509)
        let subjectKey = rsaSubjectKey?.pkey ?? publicKey.pkey
        guard withExtendedLifetime((publicKey, rsaSubjectKey), { X509_set_pubkey(x509, subjectKey) }) == 1 else {
            throw Self.failure("X509_set_pubkey")
        }
        for (oid, critical, der) in try encodedExtensions(x509: x509, issuer: issuer) {
            try Self.addExtension(x509, oid: oid, critical: critical, der: der)
        }
        guard withExtendedLifetime(issuerKey, { X509_sign(x509, issuerKey.pkey, digest) }) > 0 else {
            throw Self.failure("X509_sign")
        }

        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_X509(x509, &encoded)
        guard length > 0, let encoded else { throw Self.failure("i2d_X509") }
        defer { cshims_openssl_free(encoded) }
        return try Certificate(derEncoded: Array(UnsafeBufferPointer(start: encoded, count: Int(length))))
    }

    // MARK: Private

    private func setSerialNumber(_ x509: OpaquePointer) throws {
        guard !serialNumber.isEmpty, serialNumber.count <= 64 else {
            throw CryptoError(.invalidInput, "serial number must be 1…64 bytes")
        }
        guard let number = BN_bin2bn(serialNumber, Int32(serialNumber.count), nil) else { throw Self.failure("BN_bin2bn") }
        defer { BN_free(number) }
        guard let integer = BN_to_ASN1_INTEGER(number, nil) else { throw Self.failure("BN_to_ASN1_INTEGER") }
        defer { ASN1_INTEGER_free(integer) }
        guard X509_set_serialNumber(x509, integer) == 1 else { throw Self.failure("X509_set_serialNumber") }
    }

    private func setValidity(_ x509: OpaquePointer) throws {
        guard let start = ASN1Time.make(notBefore) else { throw Self.failure("ASN1_TIME_set (notBefore)") }
        defer { ASN1_TIME_free(start) }
        guard let end = ASN1Time.make(notAfter) else { throw Self.failure("ASN1_TIME_set (notAfter)") }
        defer { ASN1_TIME_free(end) }
        guard X509_set1_notBefore(x509, start) == 1, X509_set1_notAfter(x509, end) == 1 else {
            throw Self.failure("X509_set1_notBefore/notAfter")
        }
    }

    /// A new X509_NAME (caller frees) from (type, UTF-8 value) pairs.
    private static func makeName(_ attributes: [(String, String)]) throws -> OpaquePointer {
        guard let name = X509_NAME_new() else { throw failure("X509_NAME_new") }
        for (type, value) in attributes {
            let bytes = Array(value.utf8)
            let added = X509_NAME_add_entry_by_txt(name, type, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0)
            guard added == 1 else {
                X509_NAME_free(name)
                throw CryptoError(.invalidInput, X509Support.drainErrors("name attribute \(type)=\(value) rejected"))
            }
        }
        return name
    }

    /// (oid, critical, extnValue DER) for every extension, in order, with URI lists merged.
    private func encodedExtensions(x509: OpaquePointer, issuer: Certificate?) throws -> [(String, Bool, [UInt8])] {
        let ownKeyIdentifier: [UInt8] = {
            for case .subjectKeyIdentifierValue(let value) in extensions { return value }
            return X509Support.sha1(X509Support.bytes(X509_get0_pubkey_bitstr(x509)))
        }()
        let crlURIs = extensions.compactMap { if case .crlDistributionPointURI(let uri) = $0 { uri } else { nil } }
        let issuerAltURIs = extensions.compactMap { if case .issuerAlternativeNameURI(let uri) = $0 { uri } else { nil } }
        var wroteCRL = false
        var wroteIssuerAlt = false
        var out: [(String, Bool, [UInt8])] = []
        for item in extensions {
            switch item {
            case .basicConstraints(let isCA, let pathLength, let critical):
                var fields: [[UInt8]] = []
                if isCA { fields.append(DERWriter.boolean(true)) }
                if let pathLength { fields.append(DERWriter.integer(pathLength)) }
                out.append((X509ExtensionOID.basicConstraints, critical, DERWriter.sequence(fields)))
            case .keyUsage(let usage, let critical):
                out.append((X509ExtensionOID.keyUsage, critical, DERWriter.namedBitString(usage.rawValue)))
            case .extendedKeyUsage(let oids, let critical):
                let encoded = try oids.map { oid -> [UInt8] in
                    guard let der = DERWriter.objectIdentifier(oid) else { throw CryptoError(.invalidInput, "invalid OID \(oid)") }
                    return der
                }
                out.append((X509ExtensionOID.extendedKeyUsage, critical, DERWriter.sequence(encoded)))
            case .subjectKeyIdentifier, .subjectKeyIdentifierValue:
                out.append((X509ExtensionOID.subjectKeyIdentifier, false, DERWriter.octetString(ownKeyIdentifier)))
            case .authorityKeyIdentifier:
                let keyIdentifier = issuer.map { $0.subjectKeyIdentifier ?? $0.subjectPublicKeyBitsSHA1 } ?? ownKeyIdentifier
                out.append((X509ExtensionOID.authorityKeyIdentifier, false, DERWriter.sequence([DERWriter.tlv(0x80, keyIdentifier)])))
            case .crlDistributionPointURI:
                guard !wroteCRL else { continue }
                wroteCRL = true
                // DistributionPoint { distributionPoint [0] { fullName [0] { uniformResourceIdentifier [6] } } }
                let points = crlURIs.map { uri in
                    DERWriter.sequence([DERWriter.tlv(0xa0, DERWriter.tlv(0xa0, DERWriter.tlv(0x86, Array(uri.utf8))))])
                }
                out.append((X509ExtensionOID.crlDistributionPoints, false, DERWriter.sequence(points)))
            case .issuerAlternativeNameURI:
                guard !wroteIssuerAlt else { continue }
                wroteIssuerAlt = true
                let names = issuerAltURIs.map { DERWriter.tlv(0x86, Array($0.utf8)) }
                out.append((X509ExtensionOID.issuerAlternativeName, false, DERWriter.sequence(names)))
            case .custom(let oid, let critical, let der):
                out.append((oid, critical, der))
            }
        }
        return out
    }

    private static func addExtension(_ x509: OpaquePointer, oid: String, critical: Bool, der: [UInt8]) throws {
        guard DERWriter.objectIdentifierContent(oid) != nil, let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            throw CryptoError(.invalidInput, "invalid extension OID \(oid)")
        }
        defer { ASN1_OBJECT_free(object) }
        guard let value = ASN1_OCTET_STRING_new() else { throw failure("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(value) }
        guard ASN1_OCTET_STRING_set(value, der, Int32(der.count)) == 1,
              let ext = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, value) else {
            throw failure("X509_EXTENSION_create_by_OBJ")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x509, ext, -1) == 1 else { throw failure("X509_add_ext") }
    }

    private static func failure(_ step: String) -> CryptoError {
        CryptoError(.internalFailure, X509Support.drainErrors("\(step) failed"))
    }
}
