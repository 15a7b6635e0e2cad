import COpenSSL

/// Information about the OpenSSL library the process runs with, for `--version` and bug reports.
public enum OpenSSLLibrary {
    /// The version text of the OpenSSL library loaded at run time (not the headers built against).
    ///
    /// For example "OpenSSL 3.0.22 25 Aug 2026".
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}
