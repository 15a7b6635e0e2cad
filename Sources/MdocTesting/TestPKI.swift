import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel

/// A test PKI shaped like a real mDL issuer's: an IACA root (ISO/IEC 18013-5 Annex B, Table B.1) and a
/// Document Signer issued by it (Table B.3), plus device keys. Keys and serial numbers come from the seed;
/// validity periods from the reference time (whole UTC days), so the same seed and day give the same
/// certificates except for their signatures (OpenSSL's ECDSA is randomized; Ed25519 is not).
///
/// With the verifier's default profile a `TestPKI` produces no `issuer.certificate_profile` warning.
public struct TestPKI: Sendable {
    /// The seed material every key and serial number comes from.
    public let seed: SeedMaterial
    /// Curve of the IACA and Document Signer keys (P-256, P-384, P-521 or Ed25519).
    public let curve: Curve
    /// The IACA root certificate (self-signed).
    public let iaca: Certificate
    /// The IACA's private key.
    public let iacaKey: PrivateKey
    /// The Document Signer certificate the IACA issued.
    public let documentSigner: Certificate
    /// The Document Signer's private key.
    public let documentSignerKey: PrivateKey
    /// Subject attributes shared by the IACA and its Document Signers (C and ST must match, Table B.3).
    public let country: String
    /// The subjects' ST (state or province) attribute, e.g. `US-CA`.
    public let jurisdiction: String

    static let issuerAltNameURI = "https://iaca.mdoc-testing.invalid/"
    /// The CRL distribution point the kit writes by default (unreachable by design).
    public static let crlURI = "https://iaca.mdoc-testing.invalid/crl"

    /// Creates the IACA and its Document Signer from a seed, valid at `time`.
    ///
    /// - Parameters:
    ///   - seed: keys and serial numbers derive from it.
    ///   - curve: IACA and Document Signer curve; X25519 cannot sign.
    ///   - time: the verification time the PKI must be valid at.
    ///   - country: the subjects' C attribute.
    ///   - jurisdiction: the subjects' ST attribute.
    ///   - iacaPathLength: the IACA's pathLenConstraint; Annex B asks for 0, and nil leaves it out (as some real
    ///     roots do, Apple's test root among them).
    ///   - iacaValidity: the IACA's notBefore and notAfter; nil: valid around `time`. The Document Signer stays valid
    ///     at `time` either way (an IACA that expired before its Document Signer is a case a verifier must refuse).
    /// - Throws: `SimulationError.unsupported` for X25519, or an error from key derivation or certificate signing.
    public init(seed: UInt64 = 1, curve: Curve = .p256, at time: Date = Date(),
                country: String = "US", jurisdiction: String = "US-CA", iacaPathLength: Int? = 0,
                iacaValidity: DateInterval? = nil) throws {
        guard curve != .x25519 else { throw SimulationError.unsupported("X25519 keys cannot sign certificates") }
        let seed = SeedMaterial(seed)
        self.seed = seed
        self.curve = curve
        self.country = country
        self.jurisdiction = jurisdiction
        let iacaKey = try seed.key("iaca/\(curve.rawValue)", curve: curve)
        self.iacaKey = iacaKey
        self.iaca = try Self.makeIACA(key: iacaKey, seed: seed, time: time, country: country, jurisdiction: jurisdiction,
                                      pathLength: iacaPathLength, validity: iacaValidity)
        let dsKey = try seed.key("document-signer/\(curve.rawValue)", curve: curve)
        self.documentSignerKey = dsKey
        self.documentSigner = try Self.makeDocumentSigner(
            key: dsKey, profile: [], validity: Self.documentSignerValidity(at: time),
            issuer: iaca, issuerKey: iacaKey, serial: seed.serialNumber("document-signer"),
            country: country, jurisdiction: jurisdiction)
    }

    /// The PKI `init` makes for these arguments, made once per process and UTC day and then shared: what the kit's
    /// simulations sign with, so a test run does not derive keys and sign certificates for every response.
    ///
    /// Its keys are those of a fresh `TestPKI` from the same seed (keys come from the seed alone); for distinct keys
    /// use another seed. `init` still makes new certificates on every call.
    ///
    /// - Throws: what `init` throws; a failed build is not kept.
    public static func shared(seed: UInt64 = 1, curve: Curve = .p256, at time: Date = Date(),
                              country: String = "US", jurisdiction: String = "US-CA", iacaPathLength: Int? = 0) throws -> TestPKI {
        // The certificates depend on the time only through its UTC day (and that day's year).
        let key = SharedKey(seed: seed, curve: curve, day: startOfDay(time), country: country, jurisdiction: jurisdiction,
                            iacaPathLength: iacaPathLength)
        return try cache.value(for: key) {
            try TestPKI(seed: seed, curve: curve, at: time, country: country, jurisdiction: jurisdiction, iacaPathLength: iacaPathLength)
        }
    }

    private struct SharedKey: Hashable, Sendable {
        let seed: UInt64
        let curve: Curve
        let day: Date
        let country: String
        let jurisdiction: String
        let iacaPathLength: Int?
    }

    private static let cache = ProcessCache<SharedKey, TestPKI>()

    /// The trust store a relying party would configure: this IACA only.
    public var trustStore: TrustStore { TrustStore(anchors: [iaca]) }

    /// The IACA certificate as PEM text.
    public var iacaPEM: String { PEMText.certificate(iaca) }
    /// The Document Signer certificate as PEM text.
    public var documentSignerPEM: String { PEMText.certificate(documentSigner) }

    /// A device key (the holder's key the MSO binds), derived from the seed and `label`.
    public func deviceKey(curve: Curve = .p256, label: String = "device") throws -> PrivateKey {
        try seed.key("device/\(label)/\(curve.rawValue)", curve: curve)
    }

    // MARK: Validity periods

    /// IACA: from 1 January two years before `time`, for 15 years (Annex B allows at most 20).
    static func iacaValidity(at time: Date) -> DateInterval {
        let start = startOfYear(time, offset: -2)
        return DateInterval(start: start, end: startOfYear(time, offset: 13))
    }

    /// Document Signer: from 60 days before `time`'s day, for 450 days (Annex B allows at most 457).
    static func documentSignerValidity(at time: Date) -> DateInterval {
        let start = startOfDay(time).addingTimeInterval(-60 * 86_400)
        return DateInterval(start: start, duration: 450 * 86_400)
    }

    static func startOfDay(_ time: Date) -> Date {
        Date(timeIntervalSince1970: (time.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    static func startOfYear(_ time: Date, offset: Int) -> Date {
        let year = (Int(RFC3339.format(time).prefix(4)) ?? 2000) + offset
        let text = String(repeating: "0", count: max(0, 4 - String(year).count)) + "\(year)-01-01T00:00:00Z"
        return RFC3339.parseDateTime(text) ?? time
    }

    // MARK: Certificates

    static func iacaSubject(country: String, jurisdiction: String) -> [(String, String)] {
        [("C", country), ("ST", jurisdiction), ("O", "MdocTesting"), ("CN", "MdocTesting Test IACA")]
    }

    static func makeIACA(key: PrivateKey, seed: SeedMaterial, time: Date, country: String, jurisdiction: String,
                         label: String = "iaca", pathLength: Int? = 0, validity: DateInterval? = nil) throws -> Certificate {
        let validity = validity ?? iacaValidity(at: time)
        var extensions = CertificateBuilder.iacaExtensions(issuerAlternativeNameURI: issuerAltNameURI, crlDistributionPointURI: crlURI)
        extensions = extensions.map { item in
            if case .basicConstraints = item { return .basicConstraints(isCA: true, pathLength: pathLength, critical: true) }
            return item
        }
        let builder = CertificateBuilder(
            subject: iacaSubject(country: country, jurisdiction: jurisdiction),
            serialNumber: seed.serialNumber(label), notBefore: validity.start, notAfter: validity.end,
            publicKey: key.publicKey, extensions: extensions)
        return try builder.sign(issuer: nil, issuerKey: key)
    }

    /// A CA certificate issued by the IACA (CA=true, keyCertSign): what an issuer would put between the IACA and a
    /// document signer, which ISO/IEC 18013-5 Annex B does not provide for.
    public func issueIntermediateCA(label: String, at time: Date) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try seed.key("intermediate-ca/\(label)/\(curve.rawValue)", curve: curve)
        let validity = Self.documentSignerValidity(at: time)
        let builder = CertificateBuilder(
            subject: [("C", country), ("ST", jurisdiction), ("O", "MdocTesting"), ("CN", "MdocTesting Intermediate CA")],
            serialNumber: seed.serialNumber("intermediate-ca/\(label)"), notBefore: validity.start, notAfter: validity.end,
            publicKey: key.publicKey,
            extensions: [.basicConstraints(isCA: true, pathLength: nil, critical: true), .keyUsage([.keyCertSign, .cRLSign], critical: true),
                         .subjectKeyIdentifier, .authorityKeyIdentifier])
        return (try builder.sign(issuer: iaca, issuerKey: iacaKey), key)
    }
}
