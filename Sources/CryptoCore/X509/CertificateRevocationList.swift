#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL
import COpenSSLShims

/// A parsed X.509 CRL (RFC 5280 §5), as an IACA issues for its document signers (ISO/IEC 18013-5 Annex B).
///
/// Immutable after init; the OpenSSL object is freed with the value.
public final class CertificateRevocationList: @unchecked Sendable {
    package let crl: OpaquePointer
    /// The exact bytes this CRL was parsed from.
    public let derEncoded: [UInt8]
    /// SHA-256 of `derEncoded`, a cache key.
    public let sha256Fingerprint: [UInt8]
    /// The name of the CRL's issuer.
    public let issuer: DistinguishedName
    /// When the CRL was issued (its thisUpdate field).
    public let thisUpdate: Date
    /// nil when the CRL names no next update (then it is never current: RFC 5280 requires one).
    public let nextUpdate: Date?

    /// Parses one DER CRL.
    ///
    /// Throws `CryptoError(.invalidInput)` on malformed DER, trailing bytes or an unreadable
    /// thisUpdate.
    public init(derEncoded: [UInt8]) throws {
        guard !derEncoded.isEmpty else { throw CryptoError(.invalidInput, "empty CRL") }
        var consumed = 0
        let parsed: OpaquePointer? = derEncoded.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let crl = d2i_X509_CRL(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return crl
        }
        guard let parsed else { throw CryptoError(.invalidInput, X509Support.drainErrors("malformed DER CRL")) }
        guard consumed == derEncoded.count else {
            X509_CRL_free(parsed)
            throw CryptoError(.invalidInput, "\(derEncoded.count - consumed) trailing bytes after the DER CRL")
        }
        guard let thisUpdate = ASN1Time.date(X509_CRL_get0_lastUpdate(parsed)) else {
            X509_CRL_free(parsed)
            throw CryptoError(.invalidInput, "the CRL's thisUpdate is unreadable")
        }
        ERR_clear_error()
        self.crl = parsed
        self.derEncoded = derEncoded
        self.sha256Fingerprint = Digest.hash(.sha256, derEncoded)
        self.issuer = DistinguishedName(X509_CRL_get_issuer(parsed))
        self.thisUpdate = thisUpdate
        self.nextUpdate = ASN1Time.date(X509_CRL_get0_nextUpdate(parsed))
    }

    /// Parses every CRL in a file's bytes: PEM ("X509 CRL" blocks, at most 64) or one DER CRL.
    ///
    /// Throws `CryptoError(.invalidInput)` when PEM input has no "X509 CRL" block or a CRL is malformed.
    public static func load(_ bytes: [UInt8]) throws -> [CertificateRevocationList] {
        if bytes.firstRange(of: Array("-----BEGIN".utf8)) != nil {
            let blocks = try PEM.blocks(String(decoding: bytes, as: UTF8.self), labels: ["X509 CRL"], limit: 64)
            guard !blocks.isEmpty else { throw CryptoError(.invalidInput, "no X509 CRL block in the PEM input") }
            return try blocks.map(CertificateRevocationList.init(derEncoded:))
        }
        return [try CertificateRevocationList(derEncoded: bytes)]
    }

    deinit { X509_CRL_free(crl) }

    /// The CRL as one PEM "X509 CRL" block.
    public var pemEncoded: String { PEM.encode(label: "X509 CRL", der: derEncoded) }

    /// Returns true when `certificate` issued this CRL: its subject is the CRL's issuer and its key verifies the CRL's
    /// signature.
    public func isIssued(by certificate: Certificate) -> Bool {
        defer { ERR_clear_error() }
        return withExtendedLifetime(certificate) {
            guard X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_subject_name(certificate.x509)) == 0,
                  let key = X509_get0_pubkey(certificate.x509)
            else { return false }
            return X509_CRL_verify(crl, key) == 1
        }
    }

    /// The short name of the first critical CRL extension this reader does not process, or nil when there is none.
    ///
    /// Examples are an issuing distribution point that narrows the CRL's scope, or a delta-CRL indicator: such a
    /// CRL is no complete answer for the certificates of its issuer. Only cRLNumber and authorityKeyIdentifier are
    /// processed.
    public var unsupportedCriticalExtension: String? {
        let handled: Set<Int32> = [NID_crl_number, NID_authority_key_identifier]
        for index in 0..<max(X509_CRL_get_ext_count(crl), 0) {
            guard let ext = X509_CRL_get_ext(crl, index), X509_EXTENSION_get_critical(ext) == 1 else { continue }
            let nid = OBJ_obj2nid(X509_EXTENSION_get_object(ext))
            if !handled.contains(nid) {
                return nid == NID_undef ? "an unknown critical extension" : String(cString: OBJ_nid2sn(nid))
            }
        }
        return nil
    }

    /// Returns the revocation date of `certificate` when this CRL lists its serial number, nil when it does not.
    ///
    /// An unreadable revocation date reads as `Date.distantPast`.
    public func revocationDate(of certificate: Certificate) -> Date? {
        defer { ERR_clear_error() }
        return withExtendedLifetime(certificate) {
            var entry: OpaquePointer? = nil
            guard let serial = X509_get_serialNumber(certificate.x509),
                  X509_CRL_get0_by_serial(crl, &entry, serial) == 1, let entry
            else { return nil }
            return ASN1Time.date(X509_REVOKED_get0_revocationDate(entry)) ?? .distantPast
        }
    }
}

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
