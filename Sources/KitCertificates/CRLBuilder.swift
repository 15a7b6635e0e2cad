#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims
import CryptoCore

/// Builds and signs a CRL, for test PKIs (the compliance kit revokes document signers with it).
public struct CRLBuilder: Sendable {
    /// The thisUpdate (issue time) to write.
    public var thisUpdate: Date
    /// The nextUpdate to write; nil omits the field.
    public var nextUpdate: Date?
    /// Serial numbers (big-endian magnitude) and revocation dates.
    public var revoked: [(serialNumber: [UInt8], date: Date)]

    /// Creates a builder for a CRL with these times and revoked entries.
    public init(thisUpdate: Date, nextUpdate: Date?, revoked: [(serialNumber: [UInt8], date: Date)] = []) {
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revoked = revoked
    }

    /// Builds the CRL and signs it as `issuer` with `issuerKey`.
    ///
    /// The digest is chosen as for certificates: the key's curve picks it (`Curve.ecdsaDigest`); Ed25519 signs
    /// without one. Throws `CryptoError(.internalFailure)` when OpenSSL cannot build or sign the CRL.
    public func sign(issuer: Certificate, issuerKey: PrivateKey) throws -> CertificateRevocationList {
        let digest: OpaquePointer? = issuerKey.curve == .ed25519 ? nil : issuerKey.curve.ecdsaDigest?.md
        guard let crl = X509_CRL_new() else { throw Self.failure("X509_CRL_new") }
        defer { X509_CRL_free(crl) }
        defer { ERR_clear_error() }
        guard X509_CRL_set_version(crl, 1) == 1 else { throw Self.failure("X509_CRL_set_version") }
        guard withExtendedLifetime(issuer, { X509_CRL_set_issuer_name(crl, X509_get_subject_name(issuer.x509)) }) == 1 else {
            throw Self.failure("X509_CRL_set_issuer_name")
        }
        try Self.withTime(thisUpdate) { guard X509_CRL_set1_lastUpdate(crl, $0) == 1 else { throw Self.failure("lastUpdate") } }
        if let nextUpdate {
            try Self.withTime(nextUpdate) { guard X509_CRL_set1_nextUpdate(crl, $0) == 1 else { throw Self.failure("nextUpdate") } }
        }
        for (serialNumber, date) in revoked {
            guard let entry = X509_REVOKED_new() else { throw Self.failure("X509_REVOKED_new") }
            guard let number = BN_bin2bn(serialNumber, Int32(serialNumber.count), nil) else {
                X509_REVOKED_free(entry)
                throw Self.failure("BN_bin2bn")
            }
            let integer = BN_to_ASN1_INTEGER(number, nil)
            BN_free(number)
            defer { ASN1_INTEGER_free(integer) }
            var added = integer != nil && X509_REVOKED_set_serialNumber(entry, integer) == 1
            if added {
                added = (try? Self.withTime(date) { guard X509_REVOKED_set_revocationDate(entry, $0) == 1 else { throw Self.failure("date") } }) != nil
            }
            guard added, X509_CRL_add0_revoked(crl, entry) == 1 else {
                X509_REVOKED_free(entry)
                throw Self.failure("X509_CRL_add0_revoked")
            }
        }
        guard X509_CRL_sort(crl) == 1 else { throw Self.failure("X509_CRL_sort") }
        guard withExtendedLifetime(issuerKey, { X509_CRL_sign(crl, issuerKey.pkey, digest) }) > 0 else {
            throw Self.failure("X509_CRL_sign")
        }
        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_X509_CRL(crl, &encoded)
        guard length > 0, let encoded else { throw Self.failure("i2d_X509_CRL") }
        defer { cshims_openssl_free(encoded) }
        return try CertificateRevocationList(derEncoded: Array(UnsafeBufferPointer(start: encoded, count: Int(length))))
    }

    private static func withTime(_ date: Date, _ body: (UnsafeMutablePointer<ASN1_TIME>) throws -> Void) throws {
        guard let time = ASN1Time.make(date) else { throw failure("ASN1_TIME_set") }
        defer { ASN1_TIME_free(time) }
        try body(time)
    }

    private static func failure(_ what: String) -> CryptoError {
        CryptoError(.internalFailure, X509Support.drainErrors("\(what) failed"))
    }
}
