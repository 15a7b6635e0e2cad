/// Ceilings on what one DeviceResponse may hold, on top of the CBOR decoder's (`CBORLimits`: input size, depth,
/// items). A real response holds one or two documents of a few dozen elements; these leave ample room and refuse a
/// response built to make the verifier parse, hash or check without end. Each is checked when the structure is
/// parsed, before any per-element work, and the rejection's message names the ceiling.
public enum ResponseLimits {
    /// Documents (and DocumentErrors) in one DeviceResponse.
    public static let maxDocuments = 16
    /// Namespaces in a Document's `issuerSigned` or `deviceSigned`, and in an MSO's `valueDigests`.
    public static let maxNameSpaces = 64
    /// Elements in one Document: IssuerSignedItems over all namespaces, and device-signed elements.
    public static let maxElementsPerDocument = 2_048
    /// Digests in one MSO's `valueDigests`, over all namespaces (undisclosed elements and decoys included).
    public static let maxDigests = 16_384
    /// Certificates in one `x5chain`, signer first.
    public static let maxCertificatesPerChain = 8

    /// "… holds 17 documents; the ceiling is 16 (ResponseLimits.maxDocuments)".
    static func over(_ what: String, count: Int, limit: Int, name: String) -> String {
        "\(what) holds \(count); the ceiling is \(limit) (ResponseLimits.\(name))"
    }
}
