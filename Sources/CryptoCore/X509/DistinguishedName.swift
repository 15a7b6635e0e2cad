import COpenSSL
import COpenSSLShims

/// An X.501 Name (certificate subject or issuer) as read from a certificate.
///
/// Equality and hashing are by the DER bytes; for the RFC 5280 name match (case- and
/// whitespace-insensitive) use `Certificate.isSelfIssued` / `Certificate.issuerMatchesSubject(of:)`.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// One attribute (type and value) of a relative distinguished name.
    public struct Attribute: Sendable, Hashable {
        /// Dotted OID of the attribute type, e.g. "2.5.4.6".
        public let oid: String
        /// OpenSSL's short name ("C", "ST", "O", "CN") or the dotted OID when it has none.
        public let shortName: String
        /// The value as UTF-8 (converted from PrintableString, UTF8String, BMPString, …).
        public let value: String

        /// Creates an attribute from its dotted OID, short name and UTF-8 value.
        public init(oid: String, shortName: String, value: String) {
            self.oid = oid
            self.shortName = shortName
            self.value = value
        }
    }

    /// The DER encoding of the Name.
    public let der: [UInt8]
    /// Every attribute in encoding order (first RDN first; multi-valued RDNs flattened).
    public let attributes: [Attribute]
    /// RFC 4514-style text: last RDN first, "CN=…, O=…, C=…".
    public let description: String

    /// The first countryName (C, 2.5.4.6) value, if any.
    public var countryName: String? { first("2.5.4.6") }
    /// The first stateOrProvinceName (ST, 2.5.4.8) value, if any.
    public var stateOrProvinceName: String? { first("2.5.4.8") }
    /// The first organizationName (O, 2.5.4.10) value, if any.
    public var organizationName: String? { first("2.5.4.10") }
    /// The first commonName (CN, 2.5.4.3) value, if any.
    public var commonName: String? { first("2.5.4.3") }

    /// Every value of the attribute type `oid` (dotted), in encoding order.
    public func values(forOID oid: String) -> [String] {
        attributes.filter { $0.oid == oid }.map(\.value)
    }

    private func first(_ oid: String) -> String? {
        attributes.first { $0.oid == oid }?.value
    }

    /// Names are equal when their DER encodings are identical.
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool { lhs.der == rhs.der }
    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    /// Reads a borrowed X509_NAME.
    init(_ name: OpaquePointer) {
        if let encoded = OpenSSLCoding.encoded({ i2d_X509_NAME(name, $0) }) {
            der = encoded
        } else {
            der = []
            ERR_clear_error()
        }

        var attributes: [Attribute] = []
        let count = X509_NAME_entry_count(name)
        for index in 0..<max(count, 0) {
            guard let entry = X509_NAME_get_entry(name, index) else { continue }
            let object = X509_NAME_ENTRY_get_object(entry)
            let oid = X509Support.oidString(object)
            let nid = OBJ_obj2nid(object)
            let shortName = nid != NID_undef ? OBJ_nid2sn(nid).map { String(cString: $0) } ?? oid : oid
            attributes.append(Attribute(oid: oid, shortName: shortName, value: Self.text(X509_NAME_ENTRY_get_data(entry))))
        }
        self.attributes = attributes
        description = X509Support.takeString(cshims_x509_name_to_string(name)) ?? ""
    }

    /// An attribute value as UTF-8; bytes OpenSSL cannot convert are decoded leniently.
    private static func text(_ value: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        guard let value else { return "" }
        var utf8: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&utf8, value)
        if length >= 0, let utf8 {
            defer { cshims_openssl_free(utf8) }
            return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
        }
        ERR_clear_error()
        return String(decoding: X509Support.bytes(value), as: UTF8.self)
    }
}
