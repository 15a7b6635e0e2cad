import COpenSSL

/// The OpenSSL the process runs with, for `--version` and bug reports.
public enum OpenSSLLibrary {
    /// e.g. "OpenSSL 3.0.22 25 Aug 2026" (the library loaded at run time, not the headers).
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}
