import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel

/// A reader (relying-party) root and a reader certificate for signing requests (ReaderAuth, ISO/IEC
/// 18013-5 §9.1.4 and Annex B Table B.7): what Apple Business Connect issues for Apple Wallet, but for tests.
public struct TestReaderPKI: Sendable {
    /// The root a wallet (or a test) trusts for reader authentication.
    public let root: Certificate
    /// The reader's key and certificate chain, ready for `AnnexCWebRequest.create(reader:)`.
    public let identity: ReaderIdentity

    /// 2025-01-01 to 2035-01-01, the default validity of both certificates.
    public static let defaultValidity = Date(timeIntervalSince1970: 1_735_689_600) ... Date(timeIntervalSince1970: 2_051_222_400)

    /// Creates a root and a reader certificate it issued, with new random P-256 keys.
    ///
    /// - Parameters:
    ///   - commonName: the reader certificate's CN.
    ///   - readerEKU: false gives the leaf a TLS client EKU instead of 1.0.18013.5.1.6 (a deliberate fault).
    ///   - validity: the period both certificates are valid for.
    /// - Throws: an error from key generation or certificate signing.
    public init(commonName: String = "Test Reader", readerEKU: Bool = true, validity: ClosedRange<Date> = defaultValidity) throws {
        try self.init(rootKey: try PrivateKey.generate(.p256), key: try PrivateKey.generate(.p256), commonName: commonName,
                      readerEKU: readerEKU, validity: validity)
    }

    /// Creates a root and a reader certificate it issued, with P-256 keys derived from `seed` (`SeedMaterial`).
    ///
    /// - Throws: an error from key derivation or certificate signing.
    public init(seed: UInt64, commonName: String = "Test Reader", readerEKU: Bool = true,
                validity: ClosedRange<Date> = defaultValidity) throws {
        let material = SeedMaterial(seed)
        try self.init(rootKey: try material.key("reader-root", curve: .p256), key: try material.key("reader", curve: .p256),
                      commonName: commonName, readerEKU: readerEKU, validity: validity)
    }

    /// The PKI `init(seed:…)` makes for these arguments, made once per process and then shared, for tests that need
    /// a reader identity but not a new one; for distinct keys use another seed.
    ///
    /// - Throws: what `init(seed:…)` throws; a failed build is not kept.
    public static func shared(seed: UInt64 = 1, commonName: String = "Test Reader", readerEKU: Bool = true,
                              validity: ClosedRange<Date> = defaultValidity) throws -> TestReaderPKI {
        try cache.value(for: SharedKey(seed: seed, commonName: commonName, readerEKU: readerEKU, validity: validity)) {
            try TestReaderPKI(seed: seed, commonName: commonName, readerEKU: readerEKU, validity: validity)
        }
    }

    private struct SharedKey: Hashable, Sendable {
        let seed: UInt64
        let commonName: String
        let readerEKU: Bool
        let validity: ClosedRange<Date>
    }

    private static let cache = ProcessCache<SharedKey, TestReaderPKI>()

    private init(rootKey: PrivateKey, key: PrivateKey, commonName: String, readerEKU: Bool, validity: ClosedRange<Date>) throws {
        let interval = DateInterval(start: validity.lowerBound, end: validity.upperBound)
        let root = try CertificateBuilder.rootCA(subject: [("C", "US"), ("CN", "Test Reader Root")], validity: interval, key: rootKey)
        let usage: CertificateBuilder.Extension = readerEKU
            ? .extendedKeyUsage([ReaderAuthentication.readerExtendedKeyUsage], critical: true)
            : .extendedKeyUsage(["1.3.6.1.5.5.7.3.2"], critical: false)
        let leaf = try CertificateBuilder.signer(subject: [("C", "US"), ("CN", commonName)], validity: interval, key: key.publicKey,
                                                 extendedKeyUsage: usage, issuer: root, issuerKey: rootKey)
        self.root = root
        self.identity = try ReaderIdentity(key: key, certificates: [leaf])
    }
}
