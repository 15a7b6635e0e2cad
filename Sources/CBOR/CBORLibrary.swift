import CCBORWalker

/// The C library under the decoder, for `--version` and bug reports.
public enum CBORLibrary {
    /// libcbor's version, e.g. "0.8.0".
    public static var version: String { String(cString: cbor_walker_libcbor_version()) }
}
