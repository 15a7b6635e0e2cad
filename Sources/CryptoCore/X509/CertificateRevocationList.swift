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
        let parsed: OpaquePointer
        switch OpenSSLCoding.decodeWhole(derEncoded, { d2i_X509_CRL(nil, $0, $1) }, free: { X509_CRL_free($0) }) {
        case .success(let crl): parsed = crl
        case .failure(.malformed): throw CryptoError(.invalidInput, X509Support.drainErrors("malformed DER CRL"))
        case .failure(.trailing(let count)): throw CryptoError(.invalidInput, "\(count) trailing bytes after the DER CRL")
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
