import CBOR
import CryptoCore

/// The product's version and the C libraries it runs on, as `mdocverify --version` and `verify-server --version`
/// print them.
public enum ProductVersion {
    /// The package's version, raised with every release; CHANGELOG.md says what changed. docs/openapi.yaml's
    /// `info.version` and the documentation name the same version (`ProductVersionTests`).
    public static let package = "0.8.0"

    /// The package version followed by the OpenSSL and libcbor versions.
    ///
    /// For example "0.8.0 (OpenSSL 3.0.22 25 Aug 2026; libcbor 0.8.0)".
    public static var description: String { "\(package) (\(OpenSSLLibrary.version); libcbor \(CBORLibrary.version))" }
}
