#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims

/// A parsed X.509 certificate.
///
/// The OpenSSL X509 stays parsed for the object's lifetime (d2i_X509 is slow in OpenSSL 3.0: parse once, reuse).
/// Immutable after init, so it can be shared between tasks. Equality and hashing are by the DER bytes.
public final class Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The owned X509; freed in deinit. Callers passing it to OpenSSL keep `self` alive
    /// (`withExtendedLifetime`) for the duration of the call.
    package let x509: OpaquePointer
    /// The exact bytes this certificate was parsed from.
    public let derEncoded: [UInt8]
    /// SHA-256 of `derEncoded`; computed once, usable as a cache key.
    public let sha256Fingerprint: [UInt8]

    /// Parses one DER certificate.
    ///
    /// Throws `CryptoError(.invalidInput)` on empty input, malformed DER or trailing bytes.
    public init(derEncoded: [UInt8]) throws {
        guard !derEncoded.isEmpty else { throw CryptoError(.invalidInput, "empty certificate") }
        let parsed: OpaquePointer
        switch OpenSSLCoding.decodeWhole(derEncoded, { d2i_X509(nil, $0, $1) }, free: { X509_free($0) }) {
        case .success(let x509): parsed = x509
        case .failure(.malformed): throw CryptoError(.invalidInput, X509Support.drainErrors("malformed DER certificate"))
        case .failure(.trailing(let count)): throw CryptoError(.invalidInput, "\(count) trailing bytes after the DER certificate")
        }
        // Fill OpenSSL's extension cache now, so later reads from several threads never write to the object.
        _ = X509_get_extension_flags(parsed)
        ERR_clear_error()
        self.x509 = parsed
        self.derEncoded = derEncoded
        self.sha256Fingerprint = Digest.hash(.sha256, derEncoded)
        // Read once: certificates are immutable and these are consulted on every verification.
        self.subject = DistinguishedName(X509_get_subject_name(parsed))
        self.issuer = DistinguishedName(X509_get_issuer_name(parsed))
        self.notBefore = ASN1Time.date(X509_get0_notBefore(parsed)) ?? .distantFuture
        self.notAfter = ASN1Time.date(X509_get0_notAfter(parsed)) ?? .distantPast
        self.isSelfSigned = Self.selfSigned(parsed)
    }

    /// Parses one DER certificate from a slice.
    ///
    /// Throws `CryptoError(.invalidInput)` on empty input, malformed DER or trailing bytes.
    public convenience init(derEncoded: ArraySlice<UInt8>) throws {
        try self.init(derEncoded: Array(derEncoded))
    }

    /// Parses the first certificate ("BEGIN CERTIFICATE") in PEM text; other block types are skipped.
    ///
    /// Throws `CryptoError(.invalidInput)` when there is no certificate block or a block is malformed.
    public convenience init(pemEncoded pem: String) throws {
        guard let first = try Self.pemCertificateBlocks(pem, limit: 1).first else {
            throw CryptoError(.invalidInput, "no certificate in PEM input")
        }
        try self.init(derEncoded: first)
    }

    /// Parses every certificate in a PEM bundle, in order.
    ///
    /// Throws `CryptoError(.invalidInput)` when there is none or one is malformed.
    public static func certificates(fromPEM pem: String) throws -> [Certificate] {
        let blocks = try pemCertificateBlocks(pem, limit: Int.max)
        guard !blocks.isEmpty else { throw CryptoError(.invalidInput, "no certificate in PEM input") }
        return try blocks.map { try Certificate(derEncoded: $0) }
    }

    /// Returns the SHA-256 of DER bytes, to look a certificate up in a cache before paying for parsing.
    public static func sha256Fingerprint(of derEncoded: [UInt8]) -> [UInt8] {
        Digest.hash(.sha256, derEncoded)
    }

    deinit { X509_free(x509) }

    // MARK: Equatable, Hashable

    /// Certificates are equal when their DER encodings are identical.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derEncoded == rhs.derEncoded }
    /// Hashes the certificate's SHA-256 fingerprint.
    public func hash(into hasher: inout Hasher) { hasher.combine(sha256Fingerprint) }

    /// A one-line summary: subject, issuer, serial number (hex) and validity period.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        let serial = String(decoding: serialNumber.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
        return "Certificate(subject: \(subject), issuer: \(issuer), serial: \(serial), "
            + "notBefore: \(notBefore), notAfter: \(notAfter))"
    }

    // MARK: Fields

    /// The subject name.
    public let subject: DistinguishedName
    /// The issuer name.
    public let issuer: DistinguishedName

    /// The start of the validity period.
    ///
    /// An unreadable time yields `.distantFuture`, so the certificate is never valid.
    public let notBefore: Date
    /// The end of the validity period.
    ///
    /// An unreadable time yields `.distantPast`, so the certificate is never valid.
    public let notAfter: Date

    /// The serial number's magnitude, big-endian, without sign padding (OpenSSL's ASN1_INTEGER bytes).
    public var serialNumber: [UInt8] { X509Support.bytes(X509_get0_serialNumber(x509)) }

    /// True when the serial number is greater than zero.
    public var isSerialNumberPositive: Bool {
        guard let serial = X509_get0_serialNumber(x509) else { return false }
        return ASN1_STRING_type(serial) != V_ASN1_NEG_INTEGER && serialNumber.contains { $0 != 0 }
    }

    /// The number of content octets of the serial number's DER INTEGER, including a 0x00 sign octet.
    ///
    /// RFC 5280 §4.1.2.2 caps this at 20; 0 when the serial number cannot be read.
    public var serialNumberOctetCount: Int {
        guard let serial = X509_get0_serialNumber(x509) else { return 0 }
        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = Int(i2d_ASN1_INTEGER(serial, &encoded))
        guard length >= 2, let encoded else { ERR_clear_error(); return 0 }
        defer { cshims_openssl_free(encoded) }
        let lengthByte = encoded[1]
        return lengthByte < 0x80 ? Int(lengthByte) : length - 2 - Int(lengthByte & 0x7f)
    }

    /// The certificate's version: 1, 2 or 3.
    public var version: Int { Int(X509_get_version(x509)) + 1 }

    /// Dotted OID of the outer signatureAlgorithm, e.g. "1.2.840.10045.4.3.2" (ecdsa-with-SHA256).
    public var signatureAlgorithmOID: String {
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_get0_signature(nil, &algorithm, x509)
        var object: OpaquePointer? = nil
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        return X509Support.oidString(object)
    }

    /// Dotted OID of the subjectPublicKeyInfo algorithm, e.g. "1.2.840.10045.2.1" (id-ecPublicKey).
    public var publicKeyAlgorithmOID: String {
        var object: OpaquePointer? = nil
        guard let spki = X509_get_X509_PUBKEY(x509),
              X509_PUBKEY_get0_param(&object, nil, nil, nil, spki) == 1 else { return "" }
        return X509Support.oidString(object)
    }

    /// Returns the subject public key.
    ///
    /// Key types other than those of `Curve` (RSA, Ed448, other curves, …) throw `CryptoError(.unsupportedAlgorithm)`.
    public func publicKey() throws -> PublicKey {
        guard let pkey = X509_get_pubkey(x509) else {  // new reference, owned by PublicKey below
            ERR_clear_error()
            throw CryptoError(.unsupportedAlgorithm, "public key algorithm \(publicKeyAlgorithmOID) cannot be decoded")
        }
        guard let key = PublicKey(takingOwnershipOf: pkey) else {
            throw CryptoError(.unsupportedAlgorithm, "unsupported public key type (algorithm \(publicKeyAlgorithmOID))")
        }
        return key
    }

    /// The subjectPublicKey BIT STRING contents (for EC keys the uncompressed point 04 || X || Y).
    public var subjectPublicKeyBits: [UInt8] { X509Support.bytes(X509_get0_pubkey_bitstr(x509)) }

    /// The DER SubjectPublicKeyInfo (algorithm and key): the identity of a key across certificates.
    public var subjectPublicKeyInfoDER: [UInt8] {
        guard let spki = X509_get_X509_PUBKEY(x509) else { return [] }
        guard let encoded = OpenSSLCoding.encoded({ i2d_X509_PUBKEY(spki, $0) }) else {
            ERR_clear_error()
            return []
        }
        return encoded
    }

    /// SHA-256 of the DER SubjectPublicKeyInfo: how VICAL entries and trust anchors are deduplicated.
    public var subjectPublicKeyInfoSHA256: [UInt8] { Digest.hash(.sha256, subjectPublicKeyInfoDER) }

    /// SHA-1 of the subjectPublicKey BIT STRING contents: RFC 5280 §4.2.1.2 method 1 key identifier.
    public var subjectPublicKeyBitsSHA1: [UInt8] {
        X509Support.sha1(subjectPublicKeyBits)
    }

    // MARK: Relations between certificates

    /// True when the subject equals the issuer under the RFC 5280 name comparison (X509_NAME_cmp).
    public var isSelfIssued: Bool {
        X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0
    }

    /// True when the certificate is self-issued and its signature verifies with its own key.
    ///
    /// Decided once at parse time: the chain check asks on
    /// every verification, and a signature verification each time cost more than the rest of the chain check.
    public let isSelfSigned: Bool

    private static func selfSigned(_ x509: OpaquePointer) -> Bool {
        guard X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0,
              let key = X509_get0_pubkey(x509) else {
            ERR_clear_error()
            return false
        }
        let result = X509_verify(x509, key)
        ERR_clear_error()
        return result == 1
    }

    /// Returns true when this certificate's issuer name equals `other`'s subject name (X509_NAME_cmp).
    public func issuerMatchesSubject(of other: Certificate) -> Bool {
        withExtendedLifetime(other) {
            X509_NAME_cmp(X509_get_issuer_name(x509), X509_get_subject_name(other.x509)) == 0
        }
    }

    /// Returns true when the signature over this certificate verifies with `issuer`'s public key.
    ///
    /// Uses X509_verify, which also requires the inner and outer signature algorithms to agree.
    public func isSignedBy(_ issuer: Certificate) -> Bool {
        withExtendedLifetime(issuer) {
            guard let key = X509_get0_pubkey(issuer.x509) else {
                ERR_clear_error()
                return false
            }
            let result = X509_verify(x509, key)
            ERR_clear_error()
            return result == 1
        }
    }
}
