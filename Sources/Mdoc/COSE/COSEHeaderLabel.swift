/// COSE header labels used by mdoc (RFC 9052 §3.1, RFC 9360).
enum COSEHeaderLabel {
    static let algorithm: Int64 = 1
    static let x5chain: Int64 = 33
}
