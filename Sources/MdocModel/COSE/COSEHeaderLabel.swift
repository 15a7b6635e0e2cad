/// COSE header labels used by mdoc (RFC 9052 §3.1, RFC 9360).
package enum COSEHeaderLabel {
    package static let algorithm: Int64 = 1
    package static let critical: Int64 = 2
    package static let x5chain: Int64 = 33

    /// The labels each message's verification processes, and so the only ones its `crit` may list.
    package static let processedInIssuerAuth: Set<Int64> = [algorithm, x5chain]
    package static let processedInDeviceAuth: Set<Int64> = [algorithm]
}
