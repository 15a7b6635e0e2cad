extension CBOREncoder {
    /// Appends an array head for `count` items; the caller appends the items. For structures that wrap received
    /// bytes (`Sig_structure`, DeviceAuthentication), written straight into one buffer instead of through a
    /// `CBORValue` tree and its copies of those bytes.
    public static func appendArrayHead(count: Int, to out: inout [UInt8]) {
        appendHead(major: 4, argument: UInt64(count), to: &out)
    }

    /// Appends a tag head; the caller appends the tagged item.
    public static func appendTagHead(_ tag: UInt64, to out: inout [UInt8]) {
        appendHead(major: 6, argument: tag, to: &out)
    }

    /// Appends a definite byte string holding `bytes`.
    public static func appendByteString(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        appendHead(major: 2, argument: UInt64(bytes.count), to: &out)
        // Called unspecialized from other modules, where a generic append copies one byte at a time; contiguous
        // storage (arrays, slices: every caller) is copied at once.
        if bytes.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: bytes)
        }
    }

    /// Appends the head of a definite byte string of `count` bytes; the caller appends the bytes.
    public static func appendByteStringHead(count: Int, to out: inout [UInt8]) {
        appendHead(major: 2, argument: UInt64(count), to: &out)
    }

    /// Appends a definite text string.
    public static func appendText(_ text: String, to out: inout [UInt8]) {
        appendHead(major: 3, argument: UInt64(text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }
}
