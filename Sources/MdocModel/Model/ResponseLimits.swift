/// Ceilings on what one DeviceResponse may hold, on top of the CBOR decoder's (`CBORLimits`: input size, depth,
/// items). A real response holds one or two documents of a few dozen elements; these leave ample room and refuse a
/// response built to make the verifier parse, hash or check without end. Each is checked when the structure is
/// parsed, before any per-element work, and the rejection's message names the ceiling.
public enum ResponseLimits {
    /// The most documents (and DocumentErrors) one DeviceResponse may hold.
    public static let maxDocuments = 16
    /// The most namespaces a Document's `issuerSigned` or `deviceSigned`, or an MSO's `valueDigests`, may hold.
    public static let maxNameSpaces = 64
    /// The most elements one Document may hold: IssuerSignedItems over all namespaces, and device-signed elements.
    public static let maxElementsPerDocument = 2_048
    /// The most digests one MSO's `valueDigests` may hold, over all namespaces (undisclosed elements and decoys
    /// included).
    public static let maxDigests = 16_384
    /// The most certificates one `x5chain` may hold, signer first.
    public static let maxCertificatesPerChain = 8

    /// "… holds 17 documents; the ceiling is 16 (ResponseLimits.maxDocuments)".
    static func over(_ what: String, count: Int, limit: Int, name: String) -> String {
        "\(what) holds \(count); the ceiling is \(limit) (ResponseLimits.\(name))"
    }
}
