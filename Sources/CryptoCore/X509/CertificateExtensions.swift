import COpenSSL
import COpenSSLShims

/// One certificate extension exactly as encoded: OID, criticality and the DER of extnValue's contents.
public struct CertificateExtension: Sendable, Hashable {
    /// Dotted OID, e.g. "2.5.29.15".
    public let oid: String
    /// Whether the extension is marked critical.
    public let isCritical: Bool
    /// The DER inside the extnValue OCTET STRING.
    public let value: [UInt8]

    /// Creates an extension from its dotted OID, criticality and extnValue contents.
    public init(oid: String, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}

/// The KeyUsage bits of RFC 5280 §4.2.1.3.
///
/// Bit n of the BIT STRING is `1 << n` here.
public struct KeyUsage: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits, bit n of the BIT STRING being `1 << n`.
    public let rawValue: UInt16
    /// Creates a set from its bits (bit n of the BIT STRING is `1 << n`).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (bit 0): verifying signatures other than on certificates and CRLs.
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// nonRepudiation, also called contentCommitment (bit 1).
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (bit 2): enciphering private or secret keys.
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (bit 3): enciphering user data directly.
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (bit 4): key agreement, e.g. ECDH.
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (bit 5): verifying signatures on certificates.
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (bit 6): verifying signatures on CRLs.
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (bit 7): with keyAgreement, the key may only encipher.
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (bit 8): with keyAgreement, the key may only decipher.
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    static let names = [
        "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement",
        "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// The names of the set bits, e.g. "[digitalSignature, keyCertSign]".
    public var description: String {
        "[" + Self.names.indices.filter { rawValue & (1 << $0) != 0 }.map { Self.names[$0] }.joined(separator: ", ") + "]"
    }
}

/// The BasicConstraints extension (RFC 5280 §4.2.1.9).
public struct BasicConstraints: Sendable, Hashable {
    /// The cA flag: whether the subject is a CA.
    public let isCA: Bool
    /// The pathLenConstraint: the most non-self-issued intermediates that may follow; nil when absent (no limit).
    ///
    /// A value too large for Int64 reads as Int64.max.
    public let pathLengthConstraint: Int?

    /// Creates a value from the cA flag and the optional path length constraint.
    public init(isCA: Bool, pathLengthConstraint: Int?) {
        self.isCA = isCA
        self.pathLengthConstraint = pathLengthConstraint
    }
}

/// A GeneralName (RFC 5280 §4.2.1.6).
///
/// Kinds other than URI, dNSName and rfc822Name are kept as OpenSSL's text ("IP Address:…", "DirName:…",
/// "othername:…").
public enum GeneralName: Sendable, Hashable {
    /// A uniformResourceIdentifier.
    case uri(String)
    /// A dNSName.
    case dns(String)
    /// An rfc822Name (e-mail address).
    case email(String)
    /// Any other kind, as OpenSSL's text for it.
    case other(String)
}

/// One DistributionPoint of a CRLDistributionPoints extension.
public struct CRLDistributionPoint: Sendable, Hashable {
    /// The fullName GeneralNames (empty when the distributionPoint field is absent or a relative name).
    public let fullNames: [GeneralName]
    /// True when the distributionPoint is a nameRelativeToCRLIssuer.
    public let hasNameRelativeToCRLIssuer: Bool
    /// True when the reasons field is present (the point covers only some revocation reasons).
    public let hasReasons: Bool
    /// True when the cRLIssuer field is present (the CRL is issued by someone other than the certificate's issuer).
    public let hasCRLIssuer: Bool

    /// Creates a distribution point from its full names and the presence of its other fields.
    public init(fullNames: [GeneralName], hasNameRelativeToCRLIssuer: Bool = false, hasReasons: Bool, hasCRLIssuer: Bool) {
        self.fullNames = fullNames
        self.hasNameRelativeToCRLIssuer = hasNameRelativeToCRLIssuer
        self.hasReasons = hasReasons
        self.hasCRLIssuer = hasCRLIssuer
    }
}

/// Well-known certificate extension OIDs, in dotted form.
public enum X509ExtensionOID {
    /// The subjectKeyIdentifier extension, 2.5.29.14.
    public static let subjectKeyIdentifier = "2.5.29.14"
    /// The keyUsage extension, 2.5.29.15.
    public static let keyUsage = "2.5.29.15"
    /// The issuerAltName extension, 2.5.29.18.
    public static let issuerAlternativeName = "2.5.29.18"
    /// The basicConstraints extension, 2.5.29.19.
    public static let basicConstraints = "2.5.29.19"
    /// The nameConstraints extension, 2.5.29.30.
    public static let nameConstraints = "2.5.29.30"
    /// The cRLDistributionPoints extension, 2.5.29.31.
    public static let crlDistributionPoints = "2.5.29.31"
    /// The policyMappings extension, 2.5.29.33.
    public static let policyMappings = "2.5.29.33"
    /// The authorityKeyIdentifier extension, 2.5.29.35.
    public static let authorityKeyIdentifier = "2.5.29.35"
    /// The policyConstraints extension, 2.5.29.36.
    public static let policyConstraints = "2.5.29.36"
    /// The extKeyUsage extension, 2.5.29.37.
    public static let extendedKeyUsage = "2.5.29.37"
    /// The freshestCRL (delta CRL distribution point) extension, 2.5.29.46.
    public static let freshestCRL = "2.5.29.46"
    /// The inhibitAnyPolicy extension, 2.5.29.54.
    public static let inhibitAnyPolicy = "2.5.29.54"
}

/// Extension accessors.
///
/// A typed accessor returns nil both when the extension is absent and when it cannot be decoded or occurs twice;
/// `hasInvalidExtensions` tells the latter apart.
extension Certificate {
    /// Every extension, in encoding order.
    public var extensions: [CertificateExtension] {
        let count = X509_get_ext_count(x509)
        return (0..<max(count, 0)).compactMap { index in
            guard let ext = X509_get_ext(x509, index) else { return nil }
            return CertificateExtension(
                oid: X509Support.oidString(X509_EXTENSION_get_object(ext)),
                isCritical: X509_EXTENSION_get_critical(ext) == 1,
                value: X509Support.bytes(X509_EXTENSION_get_data(ext)))
        }
    }

    /// The first extension with `oid` (dotted), if any.
    public func firstExtension(oid: String) -> CertificateExtension? {
        extensions.first { $0.oid == oid }
    }

    /// True when OpenSSL found a malformed or duplicated extension (EXFLAG_INVALID).
    ///
    /// Path validation fails on such certificates.
    public var hasInvalidExtensions: Bool {
        X509_get_extension_flags(x509) & UInt32(EXFLAG_INVALID) != 0
    }

    /// The KeyUsage bits, or nil when the extension is absent or invalid.
    public var keyUsage: KeyUsage? {
        guard let raw = decodedExtension(NID_key_usage) else { return nil }
        let bits = raw.assumingMemoryBound(to: ASN1_BIT_STRING.self)
        defer { ASN1_BIT_STRING_free(bits) }
        var usage = KeyUsage()
        for bit in 0..<KeyUsage.names.count where ASN1_BIT_STRING_get_bit(bits, Int32(bit)) == 1 {
            usage.insert(KeyUsage(rawValue: 1 << UInt16(bit)))
        }
        return usage
    }

    /// The ExtendedKeyUsage KeyPurposeId OIDs in dotted form, e.g. ["1.0.18013.5.1.2"]; nil when absent or invalid.
    public var extendedKeyUsage: [String]? {
        guard let raw = decodedExtension(NID_ext_key_usage) else { return nil }
        let eku = OpaquePointer(raw)
        defer { cshims_eku_free(eku) }
        return (0..<max(cshims_eku_num(eku), 0)).map { X509Support.oidString(cshims_eku_value(eku, $0)) }
    }

    /// The BasicConstraints, or nil when the extension is absent or invalid.
    public var basicConstraints: BasicConstraints? {
        guard let raw = decodedExtension(NID_basic_constraints) else { return nil }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { cshims_basic_constraints_free(constraints) }
        var hasPathLength: Int32 = 0
        var pathLength: Int64 = 0
        let isCA = cshims_basic_constraints_get(constraints, &hasPathLength, &pathLength) == 1
        return BasicConstraints(isCA: isCA, pathLengthConstraint: hasPathLength == 1 ? Int(pathLength) : nil)
    }

    /// The SubjectKeyIdentifier octets, or nil when the extension is absent or invalid.
    public var subjectKeyIdentifier: [UInt8]? {
        guard let raw = decodedExtension(NID_subject_key_identifier) else { return nil }
        let octets = raw.assumingMemoryBound(to: ASN1_OCTET_STRING.self)
        defer { ASN1_OCTET_STRING_free(octets) }
        return X509Support.bytes(octets)
    }

    /// The keyIdentifier field of the AuthorityKeyIdentifier (nil if the extension or the field is absent).
    public var authorityKeyIdentifier: [UInt8]? {
        guard let raw = decodedExtension(NID_authority_key_identifier) else { return nil }
        let identifier = raw.assumingMemoryBound(to: AUTHORITY_KEYID.self)
        defer { AUTHORITY_KEYID_free(identifier) }
        guard let keyIdentifier = identifier.pointee.keyid else { return nil }
        return X509Support.bytes(keyIdentifier)
    }

    /// The CRLDistributionPoints entries, empty when the extension is absent or invalid.
    public var crlDistributionPoints: [CRLDistributionPoint] {
        guard let raw = decodedExtension(NID_crl_distribution_points) else { return [] }
        let points = OpaquePointer(raw)
        defer { cshims_crl_dps_free(points) }
        return (0..<max(cshims_crl_dps_num(points), 0)).compactMap { index -> CRLDistributionPoint? in
            guard let point = cshims_crl_dps_value(points, index) else { return nil }
            return CRLDistributionPoint(
                fullNames: Self.generalNames(cshims_dp_full_names(point)),
                hasNameRelativeToCRLIssuer: cshims_dp_has_relative_name(point) == 1,
                hasReasons: cshims_dp_has_reasons(point) == 1,
                hasCRLIssuer: cshims_dp_has_crl_issuer(point) == 1)
        }
    }

    /// The IssuerAltName names, empty when the extension is absent or invalid.
    public var issuerAlternativeNames: [GeneralName] { generalNamesExtension(NID_issuer_alt_name) }
    /// The SubjectAltName names, empty when the extension is absent or invalid.
    public var subjectAlternativeNames: [GeneralName] { generalNamesExtension(NID_subject_alt_name) }

    // MARK: Decoding helpers

    /// The decoded (d2i) value of the single extension `nid`, owned by the caller; nil when absent,
    /// duplicated or undecodable.
    private func decodedExtension(_ nid: Int32) -> UnsafeMutableRawPointer? {
        var critical: Int32 = 0
        let value = X509_get_ext_d2i(x509, nid, &critical, nil)
        if value == nil { ERR_clear_error() }
        return value
    }

    private func generalNamesExtension(_ nid: Int32) -> [GeneralName] {
        guard let raw = decodedExtension(nid) else { return [] }
        let names = OpaquePointer(raw)
        defer { cshims_general_names_free(names) }
        return Self.generalNames(names)
    }

    /// Converts a borrowed GENERAL_NAMES stack.
    private static func generalNames(_ names: OpaquePointer?) -> [GeneralName] {
        guard let names else { return [] }
        return (0..<max(cshims_general_names_num(names), 0)).compactMap { index -> GeneralName? in
            guard let name = cshims_general_names_value(names, index) else { return nil }
            var type: Int32 = -1
            let value = GENERAL_NAME_get0_value(name, &type)
            let text = { String(decoding: X509Support.bytes(value?.assumingMemoryBound(to: ASN1_STRING.self)), as: UTF8.self) }
            switch type {
            case GEN_URI: return .uri(text())
            case GEN_DNS: return .dns(text())
            case GEN_EMAIL: return .email(text())
            default: return .other(X509Support.takeString(cshims_general_name_to_string(name)) ?? "type \(type)")
            }
        }
    }
}
