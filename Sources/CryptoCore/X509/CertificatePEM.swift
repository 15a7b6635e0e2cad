import COpenSSL
import COpenSSLShims

extension Certificate {
    /// DER bodies of the "CERTIFICATE" / "X509 CERTIFICATE" blocks in `pem`, at most `limit` of them.
    /// Other block types (keys, "TRUSTED CERTIFICATE") are skipped; a malformed block throws.
    static func pemCertificateBlocks(_ pem: String, limit: Int) throws -> [[UInt8]] {
        try PEM.blocks(pem, labels: ["CERTIFICATE", "X509 CERTIFICATE"], limit: limit)
    }
}

extension Certificate {
    /// The certificate as one PEM "CERTIFICATE" block.
    public var pemEncoded: String { PEM.encode(label: "CERTIFICATE", der: derEncoded) }
}
